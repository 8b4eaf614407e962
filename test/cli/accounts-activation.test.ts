import { describe, expect, test } from "bun:test";
import { temporaryDir } from "../helpers";
import { cli, csvFile, outputLines, serviceOn, userRow, withDatabase } from "./support";

function accountsAndSessions(dataDir: string): unknown {
  return withDatabase(dataDir, (db) => [db.query("SELECT * FROM users ORDER BY Id_User").all(), db.query("SELECT * FROM sessions ORDER BY id_hash").all()]);
}

/** A data folder with two activated students and one that has not activated, and the service on it. */
async function threeStudents() {
  const dataDir = temporaryDir();
  const imported = await cli(dataDir, [
    "accounts",
    "import",
    csvFile(`role,username,password,nim,activated
mahasiswa,satu,sandi-satu-01,N1,true
mahasiswa,dua,sandi-dua-001,N2,true
mahasiswa,tiga,sandi-tiga-01,N3,false
`),
  ]);
  expect(imported.exitCode).toBe(0);
  return { dataDir, service: serviceOn(dataDir) };
}

describe("accounts activate and deactivate", () => {
  test("deactivate (decisions §14) ends every session; login and activation answer 403 until an admin activates the account again", async () => {
    const { dataDir, service } = await threeStudents();
    try {
      const satu = await service.login("satu", "sandi-satu-01");
      const dua = await service.login("dua", "sandi-dua-001");

      const result = await cli(dataDir, ["accounts", "deactivate", "satu"]);
      expect(result.stderr).toBe("");
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toBe(`Akun satu dinonaktifkan; semua sesinya berakhir. Login dan aktivasi ditolak sampai admin menjalankan "skrining --data ${dataDir} accounts activate satu".\n`);
      expect(userRow(dataDir, "satu")!.disabled_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);

      expect(await service.me(satu.access!)).toBe(401);
      expect(await service.refresh(satu.refresh!)).toBe(401);
      const disabled = { status: 403, error: "Akun dinonaktifkan. Hubungi admin fakultas." };
      expect(await service.login("satu", "sandi-satu-01")).toMatchObject(disabled);
      // The red team's way back in: activation with the account's own password re-enables nothing.
      expect(await service.activate("satu", "sandi-satu-01")).toBe(403);
      expect(await service.login("satu", "sandi-satu-01")).toMatchObject(disabled);
      // A wrong password learns nothing of the state.
      expect((await service.login("satu", "salah-sekali")).status).toBe(401);
      // Another account's session goes on.
      expect(await service.me(dua.access!)).toBe(200);

      const listed = JSON.parse((await cli(dataDir, ["accounts", "list", "--json"])).stdout) as { username: string; activated: boolean; disabled: boolean }[];
      expect(listed.find((account) => account.username === "satu")).toMatchObject({ activated: true, disabled: true });
      expect(listed.find((account) => account.username === "dua")).toMatchObject({ activated: true, disabled: false });
      expect((await cli(dataDir, ["accounts", "list"])).stdout).toMatch(/\bsatu\s+mahasiswa\s+nonaktif\b/);

      const again = await cli(dataDir, ["accounts", "deactivate", "satu"]);
      expect(again.exitCode).toBe(0);
      expect(again.stdout).toBe("Akun satu sudah dinonaktifkan; semua sesinya berakhir.\n");
      // A routine re-import of the roster keeps the deactivation.
      expect((await cli(dataDir, ["accounts", "import", csvFile("role,username,password,nim,activated\nmahasiswa,satu,sandi-satu-01,N1,true\n")])).exitCode).toBe(0);
      expect(await service.login("satu", "sandi-satu-01")).toMatchObject(disabled);

      expect((await cli(dataDir, ["accounts", "activate", "satu"])).stdout).toBe("Akun satu diaktifkan.\n");
      expect(userRow(dataDir, "satu")).toMatchObject({ is_activated: 1, disabled_at: null });
      expect((await service.login("satu", "sandi-satu-01")).status).toBe(200);
    } finally {
      service.close();
    }
  });

  test("activate lets the owner log in without the activation step; a second activate says it is active already", async () => {
    const { dataDir, service } = await threeStudents();
    try {
      expect((await service.login("tiga", "sandi-tiga-01")).status).toBe(403);
      const result = await cli(dataDir, ["accounts", "activate", "tiga"]);
      expect(result.stderr).toBe("");
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toBe("Akun tiga diaktifkan.\n");
      expect(userRow(dataDir, "tiga")!.is_activated).toBe(1);
      expect((await service.login("tiga", "sandi-tiga-01")).status).toBe(200);
      expect(await service.activate("tiga", "sandi-tiga-01")).toBe(400);

      const before = accountsAndSessions(dataDir);
      const again = await cli(dataDir, ["accounts", "activate", "tiga"]);
      expect(again.exitCode).toBe(0);
      expect(again.stdout).toBe("Akun tiga sudah aktif.\n");
      expect(accountsAndSessions(dataDir)).toEqual(before);
    } finally {
      service.close();
    }
  });

  test.each(["activate", "deactivate"])("%s of an unknown username is refused with one line, and nothing is written", async (command) => {
    const { dataDir, service } = await threeStudents();
    service.close();
    const before = accountsAndSessions(dataDir);
    const result = await cli(dataDir, ["accounts", command, "tidak.ada"]);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe("");
    expect(outputLines(result.stderr)).toEqual(["skrining: akun tidak.ada tidak ditemukan"]);
    expect(accountsAndSessions(dataDir)).toEqual(before);
  });
});

describe("accounts add says whether the account is active", () => {
  test("without --activated it says the account waits for activation and how to activate it", async () => {
    const dataDir = temporaryDir();
    const inactive = await cli(dataDir, ["accounts", "add", "--role", "mahasiswa", "--username", "budi", "--password", "budi-pass-1", "--nim", "N1"]);
    expect(inactive.exitCode).toBe(0);
    expect(outputLines(inactive.stdout).at(-1)).toBe(
      `Akun budi (mahasiswa) dibuat, belum aktif: pemiliknya mengaktifkan sendiri dengan password awal, atau jalankan "skrining --data ${dataDir} accounts activate budi".`,
    );
    expect(userRow(dataDir, "budi")!.is_activated).toBe(0);

    const active = await cli(dataDir, ["accounts", "add", "--role", "admin", "--username", "operator", "--password", "operator-pass-1", "--activated"]);
    expect(active.exitCode).toBe(0);
    expect(active.stdout).toBe("Akun operator (admin) dibuat, sudah aktif.\n");
    expect(userRow(dataDir, "operator")!.is_activated).toBe(1);
  });
});

describe("accounts passwd at a terminal", () => {
  test("asks twice without echo; the password typed is set and the account's sessions end; stdin is not read", async () => {
    const { dataDir, service } = await threeStudents();
    try {
      const before = await service.login("satu", "sandi-satu-01");
      const other = await service.login("dua", "sandi-dua-001");
      const result = await cli(dataDir, ["accounts", "passwd", "satu"], { terminal: ["sandi dari terminal", "sandi dari terminal"], stdin: "sandi-dari-stdin\n" });
      expect(result.exitCode).toBe(0);
      expect(outputLines(result.stderr)).toEqual(["Password baru: ", "Ulangi password baru: "]);
      expect(result.stdout).toBe("Password satu diganti; semua sesinya berakhir.\n");
      expect(result.stdout + result.stderr).not.toContain("sandi dari terminal");

      expect(await service.me(before.access!)).toBe(401);
      expect(await service.me(other.access!)).toBe(200);
      expect((await service.login("satu", "sandi-dari-stdin")).status).toBe(401);
      expect((await service.login("satu", "sandi dari terminal")).status).toBe(200);
    } finally {
      service.close();
    }
  });

  test("two different entries are refused: nothing changes, no session ends", async () => {
    const { dataDir, service } = await threeStudents();
    try {
      const session = await service.login("satu", "sandi-satu-01");
      const before = accountsAndSessions(dataDir);
      const result = await cli(dataDir, ["accounts", "passwd", "satu"], { terminal: ["sandi-baru-satu", "sandi-baru-sat"] });
      expect(result.exitCode).toBe(1);
      expect(result.stdout).toBe("");
      expect(outputLines(result.stderr)).toEqual(["Password baru: ", "Ulangi password baru: ", "skrining: kedua password tidak sama; password tidak diganti."]);
      expect(accountsAndSessions(dataDir)).toEqual(before);
      expect(await service.me(session.access!)).toBe(200);
    } finally {
      service.close();
    }
  });

  test("an unknown username is refused before anything is asked", async () => {
    const { dataDir, service } = await threeStudents();
    service.close();
    const result = await cli(dataDir, ["accounts", "passwd", "tidak.ada"], { terminal: [] });
    expect(result.exitCode).toBe(1);
    expect(outputLines(result.stderr)).toEqual(["skrining: akun tidak.ada tidak ditemukan"]);
  });
});
