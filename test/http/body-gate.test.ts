import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { TestService, passwords, standardAccounts } from "../helpers";

// Decisions §21: a body is read only after the checks that need none: the console's reach,
// the token and the role. Each request here carries a body that never ends (a stream that
// gives a first chunk and then nothing): a route that reads it before answering never
// answers, so a refusal that comes at all came before the body was read. The same over a
// raw socket against the running server, with its memory: test-robust/attacks.test.ts.

let service: TestService;
let tokens: Record<"mhs1" | "admin", string>;
beforeAll(async () => {
  service = new TestService();
  await service.importAccounts(standardAccounts);
  service.address = "127.0.0.1";
  tokens = await service.accessTokens(["mhs1", "admin"]);
});
afterAll(() => service.close());

/**
 * A request whose body starts (a multipart part, or JSON) and never ends; its answer, or "no
 * answer" after `waitMs` (a refusal comes within milliseconds; the margin is for a loaded machine).
 */
async function endlessBody(method: string, path: string, headers: Record<string, string>, waitMs = 1000): Promise<{ status: number; body: unknown } | "no answer"> {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode("--x\r\nContent-Disposition: form-data; name=\"berkas\"; filename=\"m.json\"\r\n\r\n{"));
    },
  });
  const request = new Request(`http://localhost${path}`, {
    method,
    body,
    headers: { "content-type": "multipart/form-data; boundary=x", "content-length": String(40 * 1024 * 1024), ...headers },
    duplex: "half",
  } as RequestInit);
  const answered = service.app.handle(request).then(async (response) => ({ status: response.status, body: await response.json() }));
  return await Promise.race([answered, Bun.sleep(waitMs).then(() => "no answer" as const)]);
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe("refused before the body is read", () => {
  const cases: [string, string, string, () => Record<string, string>, number, string][] = [
    ["a model upload without a token", "POST", "/api/admin/model", () => ({}), 401, "Token akses diperlukan."],
    ["a model upload with a forged token", "POST", "/api/admin/model", () => bearer("a.b.c"), 401, "Token tidak valid."],
    ["a model upload by a student", "POST", "/api/admin/model", () => bearer(tokens.mhs1), 403, "Akses ditolak."],
    ["a roster by a student", "POST", "/api/admin/akun/impor", () => bearer(tokens.mhs1), 403, "Akses ditolak."],
    ["a photo without a token", "PUT", "/api/mahasiswa/profil/foto", () => ({}), 401, "Token akses diperlukan."],
    ["a photo by an admin", "PUT", "/api/mahasiswa/profil/foto", () => bearer(tokens.admin), 403, "Hanya mahasiswa yang dapat mengakses."],
    ["a JSON body without a token", "POST", "/api/mahasiswa/diary", () => ({ "content-type": "application/json" }), 401, "Token akses diperlukan."],
    ["a refresh with an access token", "POST", "/api/auth/refresh", () => bearer(tokens.admin), 401, "Jenis token tidak sesuai."],
  ];
  test.each(cases)("%s: %s %s answers at once", async (_case, method, path, headers, status, error) => {
    expect(await endlessBody(method, path, headers())).toEqual({ status, body: { error } });
  });

  test("the console's reach comes first: from the LAN under --admin-web local, even with an admin's token", async () => {
    service.address = "192.168.10.31";
    try {
      const answer = await endlessBody("POST", "/api/admin/model", bearer(tokens.admin));
      expect(answer).toMatchObject({ status: 403 });
      expect((answer as { body: { error: string } }).body.error).toContain("serve --admin-web local");
    } finally {
      service.address = "127.0.0.1";
    }
  });

  test("control: a caller who may send the body has it read (the stream is waited for)", async () => {
    // Waiting only here: a quarter of a second without an answer shows the read has begun.
    expect(await endlessBody("POST", "/api/admin/model", bearer(tokens.admin), 250)).toBe("no answer");
  });

  test("a route whose caller passed the checks is checked once: its answer is the usual one", async () => {
    const form = new FormData();
    form.append("foto", new File([new Uint8Array([1, 2, 3])], "x.png", { type: "image/png" }));
    const answer = await service.request("PUT", "/api/mahasiswa/profil/foto", { token: tokens.mhs1, rawBody: form });
    expect(answer.status).toBe(400);
    expect((await service.request("POST", "/api/auth/login", { body: { username: "mhs1", password: passwords.mhs1 } })).status).toBe(200);
  });
});
