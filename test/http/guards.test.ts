import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { errorHandler } from "../../src/http/handler";
import { auditRoutes } from "../../src/http/audit";
import { access, routeGuards, type AccessRule } from "../../src/http/guards";
import { silentLogger } from "../../src/logger";
import { TestService, standardAccounts } from "../helpers";

// The guards are exercised on a small app of their own, one route per rule, so that each
// rule's answer to each role is checked before the feature routes use them.
let service: TestService;
let app: Elysia;
const tokens: Record<string, string> = {};
const rules: Record<string, AccessRule> = {
  any: access.any,
  "mahasiswa+admin": access.mahasiswaOrAdmin,
  "dosen+admin": access.dosenOrAdmin,
  mahasiswa: access.mahasiswaOnly(),
  "mahasiswa-reply": access.mahasiswaOnly("Hanya mahasiswa yang dapat membalas catatan."),
};

beforeAll(async () => {
  service = new TestService();
  await service.importAccounts(standardAccounts);
  tokens.admin = (await service.login("admin", "admin-pass-1")).access;
  tokens.dosen = (await service.login("dosen1", "dosen-pass-1")).access;
  tokens.mahasiswa = (await service.login("mhs1", "mhs-pass-1")).access;
  let guarded = new Elysia().use(errorHandler(silentLogger, service.context.health, () => [])).use(routeGuards(service.context, auditRoutes({ trail: service.context.audit, auth: service.context.auth, clientAddress: () => "local" }))) as any;
  for (const [name, rule] of Object.entries(rules)) {
    guarded = guarded.get(`/${name}`, ({ principal }: any) => ({ role: principal.role }), { access: rule });
  }
  app = guarded;
});
afterAll(() => service.close());

const allowed = { status: 200 };
const denied = (error: string) => ({ status: 403, error });

const table: [rule: string, role: string, expected: { status: number; error?: string }][] = [
  ["any", "admin", allowed],
  ["any", "dosen", allowed],
  ["any", "mahasiswa", allowed],
  ["mahasiswa+admin", "admin", allowed],
  ["mahasiswa+admin", "mahasiswa", allowed],
  ["mahasiswa+admin", "dosen", denied("Akses ditolak.")],
  ["dosen+admin", "admin", allowed],
  ["dosen+admin", "dosen", allowed],
  ["dosen+admin", "mahasiswa", denied("Akses ditolak.")],
  ["mahasiswa", "mahasiswa", allowed],
  ["mahasiswa", "admin", denied("Hanya mahasiswa yang dapat mengakses.")],
  ["mahasiswa", "dosen", denied("Hanya mahasiswa yang dapat mengakses.")],
  ["mahasiswa-reply", "admin", denied("Hanya mahasiswa yang dapat membalas catatan.")],
];

describe("role guards", () => {
  test.each(table)("%s called by %s", async (rule, role, expected) => {
    const response = await app.handle(new Request(`http://localhost/${rule}`, { headers: { authorization: `Bearer ${tokens[role]}` } }));
    const body = await response.json();
    expect(response.status).toBe(expected.status);
    if (expected.error) expect(body).toEqual({ error: expected.error });
    else expect(body).toEqual({ role });
  });

  test.each(Object.keys(rules))("%s without a token answers 401", async (rule) => {
    const response = await app.handle(new Request(`http://localhost/${rule}`));
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: "Token akses diperlukan." });
  });
});
