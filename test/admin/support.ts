import { TestService, passwords, snapshotFixture, standardAccounts, type RequestOptions, type TestResponse } from "../helpers";

/** The address of the PC itself, as the server's clientAddress reports a loopback client. */
export const loopback = "127.0.0.1";
/** A lab PC on the campus network. */
export const lanAddress = "192.168.10.31";

/**
 * A service with the standard accounts, whose requests come from the PC itself (where the
 * console answers by default), the admin signed in; `confirmed(act)` gives a fresh
 * confirmation of the admin's password for one act that can give access, `confirmedCall`
 * makes the act with one.
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
  /** A confirmation of the admin's password for one act (`POST /api/admin/akun/mhs1/aktifkan`), as its header. */
  const confirmed = async (act: string, token = admin): Promise<Record<string, string>> => {
    const answer = await service.request("POST", "/api/admin/konfirmasi", { token, body: { password: passwords.admin, tindakan: act } });
    if (answer.status !== 200) throw new Error(`confirmation: ${answer.status} ${JSON.stringify(answer.body)}`);
    return { "x-konfirmasi": answer.body.konfirmasi };
  };
  /** An act confirmed for itself first, then called. */
  const confirmedCall = async (method: string, path: string, options: RequestOptions = {}): Promise<TestResponse> =>
    call(method, path, { ...options, headers: { ...options.headers, ...(await confirmed(`${method} ${path}`)) } });
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
  return { service, admin, call, confirmed, confirmedCall, auditAfter, lastAuditId };
}

/** A multipart form with one file and text fields. */
export function form(file: { field: string; name: string; bytes: Uint8Array | string; type?: string } | null, fields: Record<string, string> = {}): FormData {
  const data = new FormData();
  if (file) data.append(file.field, new Blob([file.bytes], { type: file.type ?? "application/octet-stream" }), file.name);
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}
