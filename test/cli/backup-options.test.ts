import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { standardAccounts, temporaryDir } from "../helpers";
import { signJwt } from "../auth/support";
import { addSession, cli, csvFile, serviceOn, withDatabase } from "./support";

// serve's automatic backup options refused before anything starts, and decisions §21: a
// restore makes a new token key unless --keep-sessions.

describe("serve's automatic backup options", () => {
  const refused: [string, string[], string][] = [
    ["--backup-every without --backup-dir", ["--backup-every", "6h"], "hanya berlaku bersama --backup-dir"],
    ["--backup-keep without --backup-dir", ["--backup-keep", "3"], "hanya berlaku bersama --backup-dir"],
    ["a backup folder that does not exist", ["--backup-dir", "/tidak/ada/cadangan"], "Folder cadangan /tidak/ada/cadangan tidak ada"],
    ["a period that is not a duration", ["--backup-dir", "/tmp", "--backup-every", "sehari"], "30m, 6h, 24h atau 7d"],
    ["a period of zero", ["--backup-dir", "/tmp", "--backup-every", "0h"], "30m, 6h, 24h atau 7d"],
    ["keeping none", ["--backup-dir", "/tmp", "--backup-keep", "0"], "bilangan bulat 1–1000"],
  ];

  test.each(refused)("refuses %s before anything starts or is created", async (_case, options, message) => {
    const dataDir = join(temporaryDir("skrining-serve-"), "data");
    const result = await cli(dataDir, ["serve", "--port", "0", ...options]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(message);
    expect(existsSync(dataDir)).toBe(false);
  });
});

describe("decisions §21: a restore makes a new token key unless --keep-sessions over the folder the backup is of", () => {
  /** A data folder with the standard accounts and the admin signed in (a session and its tokens, as a login makes them), and a backup of it taken after. */
  async function signedIn() {
    const dataDir = join(temporaryDir("skrining-sessions-"), "data");
    expect((await cli(dataDir, ["accounts", "import", csvFile(standardAccounts)])).exitCode).toBe(0);
    const sid = addSession(dataDir, "admin", "sesi-admin-sebelum-cadangan");
    const sub = String(withDatabase(dataDir, (db) => db.query<{ id: number }, []>("SELECT Id_User AS id FROM users WHERE username = 'admin'").get()!.id));
    const secret = readFileSync(join(dataDir, "secret"), "utf8").trim();
    const now = Math.floor(Date.now() / 1000);
    const token = (type: "access" | "refresh") => signJwt({ sub, sid, type, role: "admin", jti: `${type}-1`, iat: now, exp: now + 3600 }, secret);
    const archive = join(temporaryDir("skrining-sessions-backup-"), "cadangan.tar.gz");
    expect((await cli(dataDir, ["backup", archive])).exitCode).toBe(0);
    return { dataDir, archive, access: token("access"), refresh: token("refresh") };
  }

  /** The statuses of `/me` and refresh with the tokens, on the folder as a server would open it, and its sessions still open. */
  async function onRestored(dataDir: string, tokens: { access: string; refresh: string }) {
    const service = serviceOn(dataDir);
    try {
      const openSessions = withDatabase(dataDir, (db) => db.query<{ n: number }, []>("SELECT count(*) AS n FROM sessions WHERE ended_at IS NULL").get()!.n);
      return { me: await service.me(tokens.access), refresh: await service.refresh(tokens.refresh), openSessions };
    } finally {
      service.close();
    }
  }

  /** One signed-in folder and its backup for the tests that restore it elsewhere: neither is changed by them. */
  let shared: ReturnType<typeof signedIn> | undefined;
  const signedInOnce = () => (shared ??= signedIn());

  test("into another folder: the backup's tokens are refused, its sessions ended, and the restore's row says so", async () => {
    const { archive, ...tokens } = await signedInOnce();
    const restored = join(temporaryDir("skrining-sessions-restore-"), "data");
    const result = await cli(restored, ["restore", archive]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("Kunci token baru dibuat: semua sesi login berakhir, setiap pengguna login lagi");
    expect(await onRestored(restored, tokens)).toEqual({ me: 401, refresh: 401, openSessions: 0 });
    const row = withDatabase(restored, (db) => db.query<{ detail: string }, []>("SELECT detail FROM audit_log ORDER BY id DESC LIMIT 1").get()!);
    expect(row.detail).toEndWith("; kunci token baru, semua sesi login berakhir");
  });

  test("over the same folder without --keep-sessions: everyone signs in again", async () => {
    const { dataDir, archive, ...tokens } = await signedIn();
    const result = await cli(dataDir, ["restore", archive, "--force"]);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(await onRestored(dataDir, tokens)).toEqual({ me: 401, refresh: 401, openSessions: 0 });
  });

  test("over the same folder with --keep-sessions: the key and the sessions are kept, and the restore's row says so", async () => {
    const { dataDir, archive, ...tokens } = await signedIn();
    const secret = readFileSync(join(dataDir, "secret"), "utf8");
    const result = await cli(dataDir, ["restore", archive, "--force", "--keep-sessions"]);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("Kunci token cadangan dipertahankan (--keep-sessions)");
    expect(readFileSync(join(dataDir, "secret"), "utf8")).toBe(secret);
    expect(await onRestored(dataDir, tokens)).toEqual({ me: 200, refresh: 200, openSessions: 1 });
    const row = withDatabase(dataDir, (db) => db.query<{ detail: string }, []>("SELECT detail FROM audit_log ORDER BY id DESC LIMIT 1").get()!);
    expect(row.detail).toEndWith("; sesi login dipertahankan (--keep-sessions)");
  });

  const elsewhere: [string, () => Promise<string>][] = [
    ["an empty folder elsewhere", async () => join(temporaryDir("skrining-sessions-restore-"), "data")],
    ["another data folder, with --force", async () => {
      const other = join(temporaryDir("skrining-sessions-other-"), "data");
      expect((await cli(other, ["accounts", "add", "--role", "admin", "--username", "lain", "--password", "sandi-lain-1"])).exitCode).toBe(0);
      expect((await cli(other, ["backup", join(temporaryDir("skrining-sessions-other-backup-"), "x.tar.gz")])).exitCode).toBe(0);
      return other;
    }],
  ];
  test.each(elsewhere)("--keep-sessions into %s: refused, nothing written or moved", async (_case, make) => {
    const { archive } = await signedInOnce();
    const target = await make();
    const before = [readdirSync(join(target, "..")), existsSync(target) ? readdirSync(target).sort() : null];
    const result = await cli(target, ["restore", archive, "--force", "--keep-sessions"]);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("--keep-sessions hanya berlaku saat memulihkan ke folder data tempat cadangan itu dibuat, di PC yang sama");
    expect([readdirSync(join(target, "..")), existsSync(target) ? readdirSync(target).sort() : null]).toEqual(before);
  });
});
