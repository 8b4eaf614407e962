import { afterEach, expect, test } from "bun:test";
import { passwordHashing } from "../../src/accounts/passwords";
import { TestService } from "../helpers";

// Unknown usernames are checked against a decoy hash, so that they take as long as wrong
// passwords. The decoy is made by the first login, not while the service starts (a hash is
// a core's work, and a start should only open the port), and only once.

let service: TestService | undefined;
let restore = () => {};
afterEach(() => {
  restore();
  service?.close();
});

test("no hash is made at start; the first login makes the decoy, whoever it names, and later ones reuse it", async () => {
  const bcrypt = await passwordHashing();
  const original = bcrypt.hash;
  const hashed: string[] = [];
  bcrypt.hash = (password, cost) => (hashed.push(password), original(password, cost));
  restore = () => (bcrypt.hash = original);

  service = new TestService();
  expect(hashed).toEqual([]);
  await service.importAccounts("role,username,password,nim,activated\nmahasiswa,mhs1,mhs-pass-1,N001,true\n");
  hashed.length = 0;
  expect((await service.request("POST", "/api/auth/login", { body: { username: "mhs1", password: "mhs-pass-1" } })).status).toBe(200);
  expect(hashed).toEqual(["decoy password"]);
  expect((await service.request("POST", "/api/auth/login", { body: { username: "tidak-ada", password: "apa-saja-1" } })).status).toBe(401);
  expect((await service.request("POST", "/api/auth/login", { body: { username: "mhs1", password: "salah-sekali" } })).status).toBe(401);
  expect(hashed).toEqual(["decoy password"]);
});
