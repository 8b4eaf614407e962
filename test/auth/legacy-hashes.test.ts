import { describe, expect, test } from "bun:test";
import { storedHashLogins, texts, userRow } from "./support";

// decisions.md §6: Werkzeug hashes imported from the Flask deployment are verified and
// re-hashed with bcrypt on the next successful login. Both hashes are of `rahasia123`,
// computed with Python's hashlib (what Werkzeug uses).
const legacyHashes: [string, string][] = [
  ["pbkdf2:sha256", "pbkdf2:sha256:1000$Sx9kQ2rL$3ca7d224eebec2af04486544eb5c12113f72c81b24fe8e5835b69cafdb051e1a"],
  [
    "scrypt",
    "scrypt:1024:8:1$Sx9kQ2rL$01369dea952fbc3b1db050a534dc0e0b15efbd8251f5bad136eb2764d3463007fd53f88a4291fcb871d89824fe7febe41088ed2bc8b85417689a11587579450e",
  ],
];
const password = "rahasia123";

const harness = storedHashLogins();
const { setHash, login } = harness;

describe.each(legacyHashes)("a Werkzeug %s hash", (_kind, hash) => {
  test("a wrong password is refused and the hash is left alone", async () => {
    setHash("mhs1", hash);
    for (const wrong of ["rahasia124", "Rahasia123", "rahasia123 ", "mhs-pass-1"]) {
      const response = await login("mhs1", wrong);
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ error: texts.badCredentials });
      expect(userRow(harness.service, "mhs1")!.password_hash).toBe(hash);
    }
  });

  test("the right password logs in, the hash becomes bcrypt, and login keeps working", async () => {
    setHash("mhs1", hash);
    const first = await login("mhs1", password);
    expect(first.status).toBe(200);
    expect(first.body.user).toMatchObject({ username: "mhs1", role: "mahasiswa", NIM: "N001" });
    const rehashed = userRow(harness.service, "mhs1")!.password_hash;
    expect(rehashed).toMatch(/^\$2b\$\d\d\$[./A-Za-z0-9]{53}$/);

    const second = await login("mhs1", password);
    expect(second.status).toBe(200);
    // A bcrypt hash is not rehashed again.
    expect(userRow(harness.service, "mhs1")!.password_hash).toBe(rehashed);
    const wrong = await login("mhs1", "rahasia124");
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ error: texts.badCredentials });
    expect((await harness.service.request("GET", "/api/auth/me", { token: second.body.access_token })).status).toBe(200);
  });

  test("a not-activated account with a legacy hash is refused with 403 and keeps its hash", async () => {
    setHash("mhs3", hash);
    const response = await login("mhs3", password);
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ error: texts.notActivated });
    expect(userRow(harness.service, "mhs3")!.password_hash).toBe(hash);
  });
});

describe("hashes that are not of a known format", () => {
  const cases: [string, string][] = [
    ["a digest of the wrong password", "pbkdf2:sha256:1000$Sx9kQ2rL$" + "0".repeat(64)],
    ["another salt", "pbkdf2:sha256:1000$Sx9kQ2rM$3ca7d224eebec2af04486544eb5c12113f72c81b24fe8e5835b69cafdb051e1a"],
    ["an unknown method", "md5$Sx9kQ2rL$3ca7d224eebec2af04486544eb5c12113f72c81b24fe8e5835b69cafdb051e1a"],
    ["the plain password", password],
  ];
  test.each(cases)("%s → 401", async (_name, hash) => {
    setHash("mhs2", hash);
    const response = await login("mhs2", password);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: texts.badCredentials });
    expect(userRow(harness.service, "mhs2")!.password_hash).toBe(hash);
  });
});
