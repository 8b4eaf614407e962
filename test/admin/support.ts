import { TestService, passwords, snapshotFixture, standardAccounts, type RequestOptions, type TestResponse } from "../helpers";

/** The address of the PC itself, as the server's clientAddress reports a loopback client. */
export const loopback = "127.0.0.1";
/** A lab PC on the campus network. */
export const lanAddress = "192.168.10.31";

/**
 * A service with the standard accounts, whose requests come from the PC itself (where the
 * console answers by default), the admin signed in; `confirmed()` gives a fresh
 * confirmation of the admin's password for a destructive act.
 */
export async function consoleService(environment: Record<string, string> = {}, appOptions?: ConstructorParameters<typeof TestService>[2]) {
  const open = async () => {
    const service = new TestService(environment, undefined, appOptions);
    service.address = loopback;
    await service.importAccounts(standardAccounts);
    return { service, admin: (await service.login("admin", passwords.admin)).access };
  };
  // Built once per environment and copied (snapshotFixture), unless it has options only a serving process has.
  const { service, admin } = appOptions ? await open() : await snapshotFixture(`console ${JSON.stringify(environment)}`, open, environment);
  service.address = loopback;
  const call = (method: string, path: string, options: RequestOptions = {}): Promise<TestResponse> => service.request(method, path, { token: admin, ...options });
  const confirmed = async (token = admin): Promise<Record<string, string>> => {
    const answer = await service.request("POST", "/api/admin/konfirmasi", { token, body: { password: passwords.admin } });
    if (answer.status !== 200) throw new Error(`confirmation: ${answer.status} ${JSON.stringify(answer.body)}`);
    return { "x-konfirmasi": answer.body.konfirmasi };
  };
  /** The audit rows after `id`, as the trail keeps them; `nim` the row's students (audit_subjects), space-separated. */
  const auditAfter = (id: number) =>
    service.context.db.$client
      .query<{ id: number; actor_role: string; actor_username: string | null; client_address: string | null; action: string; nim: string | null; target: string; detail: string | null }, [number]>(
        `SELECT id, actor_role, actor_username, client_address, action, target, detail,
           (SELECT group_concat(nim, ' ') FROM (SELECT nim FROM audit_subjects WHERE audit_id = audit_log.id ORDER BY nim)) AS nim
         FROM audit_log WHERE id > ? ORDER BY id`,
      )
      .all(id);
  const lastAuditId = () => service.context.db.$client.query<{ id: number }, []>("SELECT coalesce(max(id), 0) AS id FROM audit_log").get()!.id;
  return { service, admin, call, confirmed, auditAfter, lastAuditId };
}

/** A multipart form with one file and text fields. */
export function form(file: { field: string; name: string; bytes: Uint8Array | string; type?: string } | null, fields: Record<string, string> = {}): FormData {
  const data = new FormData();
  if (file) data.append(file.field, new Blob([file.bytes], { type: file.type ?? "application/octet-stream" }), file.name);
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}
