import { describe, expect, test } from "bun:test";
import { storedHashLogins, texts, userRow } from "./support";

// Every bcrypt variant a roster import or an older deployment may bring must keep working,
// not only the `$2b$` this service writes: all three are of `rahasia123`, cost 4.
const foreignHashes: [string, string][] = [
  ["$2a$", "$2a$04$eb6FrOyTnqdxaI75i.GvR.luDbXLUQWGwZpLdZrbGKWbYF.Ndvpfu"],
  ["$2b$", "$2b$04$DCbMJVXQxQsHHrXgyKapFOU4vGypFspFH7COYSc/WNdLWK2BJX.L2"],
  ["$2y$", "$2y$04$ZgjT3DphOvFEJrpX/fEriuqNDwlA3rwcP5i2KuplpCmR2/SyR/Cxq"],
];
const password = "rahasia123";

const harness = storedHashLogins();
const { setHash, login } = harness;

describe.each(foreignHashes)("a %s hash", (_prefix, hash) => {
  test("the right password logs in and the hash is kept as it is", async () => {
    setHash("mhs1", hash);
    const response = await login("mhs1", password);
    expect(response.status).toBe(200);
    expect(response.body.user).toMatchObject({ username: "mhs1" });
    expect(userRow(harness.service, "mhs1")!.password_hash).toBe(hash);
  });

  test("a wrong password is refused", async () => {
    setHash("mhs1", hash);
    for (const wrong of ["rahasia124", "Rahasia123", "rahasia12"]) {
      const response = await login("mhs1", wrong);
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ error: texts.badCredentials });
    }
  });
});

test("a damaged bcrypt hash in the database is a wrong password (401), not a server error", async () => {
  const right = foreignHashes[1]![1];
  const damagedHashes = [
    "$2b$10$rusak",
    "$2",
    right.slice(0, -1), // one character short
    right.replace("$04$", "$99$"), // a cost bcrypt does not have
    right.replace("$2b$", "$2q$"), // no such variant
  ];
  for (const damaged of damagedHashes) {
    setHash("mhs2", damaged);
    const response = await login("mhs2", password);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: texts.badCredentials });
    expect(userRow(harness.service, "mhs2")!.password_hash).toBe(damaged);
  }
});

test("an imported password is stored as a $2b$ hash at the configured cost (4 in the tests) and logs in", async () => {
  expect(userRow(harness.service, "dosen1")!.password_hash).toMatch(/^\$2b\$04\$[./A-Za-z0-9]{53}$/);
  expect((await login("dosen1", "dosen-pass-1")).status).toBe(200);
});
