import { afterAll, beforeAll, expect, test } from "bun:test";
import { TestService, standardAccounts } from "./helpers";

let service: TestService;
beforeAll(async () => {
  service = new TestService();
  await service.importAccounts(standardAccounts);
});
afterAll(() => service.close());

test("an activated student logs in and reads /me", async () => {
  const { access } = await service.login("mhs1", "mhs-pass-1");
  const me = await service.request("GET", "/api/auth/me", { token: access });
  expect(me.status).toBe(200);
  expect(me.body).toMatchObject({ username: "mhs1", role: "mahasiswa", NIM: "N001", nama: "Mahasiswa Satu", is_activated: true });
  expect(me.body).not.toHaveProperty("password");
});
