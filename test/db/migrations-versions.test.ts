import { populated } from "./populated-database";
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { appendAuditRows } from "../../src/audit/trail";
import { verifyAuditChain } from "../../src/audit/verify";
import { openDatabase } from "../../src/db";
import { applyMigrations } from "../../src/db/migrate";
import { migrations } from "../../src/db/migrations";
import { summariesCurrent } from "../../src/db/summaries";
import { temporaryDir } from "../helpers";

describe("migration 0003 (sessions) on a populated database of the previous version", () => {
  test("keeps every account and profile, drops the per-token blocklist and the password version, adds sessions", () => {
    const index = migrations.findIndex((migration) => migration.tag === "0003_sessions");
    const sqlite = openDatabase(join(temporaryDir("skrining-migration-0003-"), "skrining.db"), migrations.slice(0, index)).$client;
    try {
      sqlite.run("INSERT INTO users (Id_User, username, password_hash, role, is_activated, password_version) VALUES (1, 'd1', 'h1', 'dosen', 1, 3), (2, 'm1', 'h2', 'mahasiswa', 0, 0)");
      sqlite.run("INSERT INTO dosen (NIP, nama_dosen, Id_User) VALUES ('D1', 'Satu', 1)");
      sqlite.run("INSERT INTO mahasiswa (NIM, Id_User, NIP_doswal) VALUES ('N1', 2, 'D1')");
      sqlite.run("INSERT INTO revoked_tokens (jti, expires_at) VALUES ('j1', 4102444800)");
      const kept = (table: string) => sqlite.query(`SELECT * FROM ${table} ORDER BY rowid`).all();
      const before = { dosen: kept("dosen"), mahasiswa: kept("mahasiswa") };

      expect(applyMigrations(sqlite, migrations.slice(0, index + 1))).toEqual(["0003_sessions"]);

      expect({ dosen: kept("dosen"), mahasiswa: kept("mahasiswa") }).toEqual(before);
      expect(sqlite.query("SELECT Id_User, username, password_hash, role, is_activated FROM users ORDER BY Id_User").all()).toEqual([
        { Id_User: 1, username: "d1", password_hash: "h1", role: "dosen", is_activated: 1 },
        { Id_User: 2, username: "m1", password_hash: "h2", role: "mahasiswa", is_activated: 0 },
      ]);
      const tables = sqlite.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((row) => row.name);
      expect(tables).toContain("sessions");
      expect(tables).not.toContain("revoked_tokens");
      expect(sqlite.query<{ name: string }, []>("SELECT name FROM pragma_table_info('users')").all().map((row) => row.name)).not.toContain("password_version");
      // Deleting an account takes its sessions with it.
      sqlite.run("INSERT INTO sessions (id, Id_User, created_at, expires_at) VALUES ('s1', 1, '2026-01-01T00:00:00.000Z', 4102444800)");
      sqlite.run("DELETE FROM dosen WHERE NIP = 'D1'");
      sqlite.run("DELETE FROM users WHERE Id_User = 1");
      expect(sqlite.query("SELECT count(*) AS n FROM sessions").get()).toEqual({ n: 0 });
    } finally {
      sqlite.close();
    }
  });
});

describe("migrations 0008 (audit reads) and 0011 (audit subjects) on a trail of the version before", () => {
  test("every row counts one read, names its student in audit_subjects, and the chain hashed before both stays whole", () => {
    const index = migrations.findIndex((migration) => migration.tag === "0008_audit_reads");
    const sqlite = openDatabase(join(temporaryDir("skrining-migration-0008-"), "skrining.db"), migrations.slice(0, index)).$client;
    try {
      // Two rows as the version before 0008 hashed them: SHA-256 of the JSON array of the twelve columns.
      let previous = "0".repeat(64);
      for (const id of [1, 2]) {
        const content = [id, `2026-03-0${id}T00:00:00.000Z`, 2, "dosen1", "dosen", "Dosen Satu", "10.0.0.5", "view", id === 1 ? "N001" : null, "GET /api/mahasiswa/hasil/:nim", null, previous];
        const hash = createHash("sha256").update(JSON.stringify(content)).digest("hex");
        sqlite.query("INSERT INTO audit_log (id, at, actor_user_id, actor_username, actor_role, actor_name, client_address, action, nim, target, detail, previous_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)").run(...(content as never[]), hash);
        previous = hash;
      }

      expect(applyMigrations(sqlite, migrations)).toEqual(migrations.slice(index).map((migration) => migration.tag));

      expect(sqlite.query("SELECT id, reads, format FROM audit_log ORDER BY id").all()).toEqual([
        { id: 1, reads: 1, format: 1 },
        { id: 2, reads: 1, format: 1 },
      ]);
      expect(sqlite.query("SELECT audit_id, nim FROM audit_subjects").all()).toEqual([{ audit_id: 1, nim: "N001" }]);
      expect(verifyAuditChain(sqlite)).toEqual({ rows: 2, anchor: { id: 2, hash: previous }, anchorFound: null, problems: [] });
      // A row of the new format continues the chain.
      sqlite.transaction(() => appendAuditRows(sqlite, [{ actor: { userId: 2, username: "dosen1", role: "dosen" }, action: "view", students: ["N002", "N001"], target: "GET /api/dosen/mahasiswa" }]))();
      expect(verifyAuditChain(sqlite)).toMatchObject({ rows: 3, problems: [] });
      // The triggers still refuse changes after the columns were added, in both tables.
      expect(() => sqlite.run("UPDATE audit_log SET reads = 2 WHERE id = 1")).toThrow("baris tidak boleh diubah");
      expect(() => sqlite.run("DELETE FROM audit_subjects WHERE audit_id = 1")).toThrow("baris tidak boleh dihapus");
    } finally {
      sqlite.close();
    }
  });
});

describe("migration 0015 (hashed sessions) on a populated database of the previous version", () => {
  test("every session ends, and nothing else changes: accounts, profiles, records, the trail", () => {
    const index = migrations.findIndex((migration) => migration.tag === "0015_hashed_sessions");
    const { sqlite } = populated(migrations.slice(0, index));
    try {
      sqlite.run("UPDATE users SET must_change_password = 1 WHERE Id_User = 5");
      sqlite.run(`INSERT INTO sessions (id, Id_User, created_at, expires_at, ended_at) VALUES
        ('sesi-admin', 1, '2026-03-01T00:00:00.000Z', 4102444800, NULL), ('sesi-mhs1', 4, '2026-03-01T00:00:00.000Z', 4102444800, NULL),
        ('sesi-lama', 4, '2026-02-01T00:00:00.000Z', 4102444800, '2026-02-02T00:00:00.000Z')`);
      sqlite.transaction(() => appendAuditRows(sqlite, [{ actor: { userId: 1, username: "admin", role: "admin" }, action: "login", target: "POST /api/auth/login" }]))();
      const tables = sqlite
        .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('sessions', '__drizzle_migrations') AND name NOT LIKE 'sqlite_%' ORDER BY name")
        .all()
        .map((row) => row.name);
      // Every row of every table, in one order whatever the table's key (audit_subjects has no rowid).
      const everything = (): Record<string, unknown[]> =>
        Object.fromEntries(tables.map((table) => [table, sqlite.query(`SELECT * FROM ${table}`).all().sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))]));
      const before = everything();

      // This migration alone: a later one brings its own changes (0016, decisions §19, is tested in migration-follow-up-conversation.test.ts).
      expect(applyMigrations(sqlite, migrations.slice(0, index + 1))).toEqual([migrations[index]!.tag]);

      // The accounts gain the end of a one-time password, unset; every other row is as it was.
      const withoutEnd = (rows: unknown[]) => rows.map((row) => {
        const { password_expires_at, ...rest } = row as Record<string, unknown>;
        expect(password_expires_at).toBeNull();
        return rest;
      });
      const after = everything();
      expect({ ...after, users: withoutEnd(after.users!) } as Record<string, unknown[]>).toEqual(before);
      expect(sqlite.query("SELECT count(*) AS n FROM sessions").get()).toEqual({ n: 0 });
      expect(sqlite.query<{ name: string }, []>("SELECT name FROM pragma_table_info('sessions')").all().map((row) => row.name)).toEqual(["id_hash", "Id_User", "created_at", "expires_at", "ended_at"]);
      expect(verifyAuditChain(sqlite)).toMatchObject({ problems: [] });
      // The later migrations then bring it to the current version, its summaries current.
      applyMigrations(sqlite, migrations);
      expect(summariesCurrent(sqlite)).toBe(true);
      // A session of the new version is stored by its hash; deleting an account still takes its sessions.
      sqlite.run("INSERT INTO sessions (id_hash, Id_User, created_at, expires_at) VALUES ('h1', 4, '2026-03-02T00:00:00.000Z', 4102444800)");
      expect(sqlite.query("SELECT count(*) AS n FROM sessions WHERE Id_User = 4").get()).toEqual({ n: 1 });
    } finally {
      sqlite.close();
    }
  });
});

describe("a database a newer skrining has migrated", () => {
  test("is refused by an older program, which changes nothing in it", () => {
    const path = join(temporaryDir("skrining-newer-"), "skrining.db");
    openDatabase(path).$client.close();
    const before = new Database(path, { readonly: true });
    const schema = before.query("SELECT type, name, sql FROM sqlite_master ORDER BY name").all();
    before.close();

    // The program of one version ago knows every migration but the last.
    // Counted as restore counts it and as an older schema is named: migration numbers (issue 44).
    const newest = String(migrations.length - 1).padStart(4, "0");
    const known = migrations.at(-2)!.tag.split("_")[0];
    expect(() => openDatabase(path, migrations.slice(0, -1))).toThrow(
      `Basis data ini sudah diperbarui oleh skrining versi yang lebih baru: skema basis datanya lebih baru dari program ini (migrasi ${newest}; program ini ${known}). ` +
        "Jalankan versi yang lebih baru itu, atau kembalikan salinan sebelum pembaruan dengan 'skrining rollback' (docs/operations.md, bagian Upgrade).",
    );
    const after = new Database(path, { readonly: true });
    expect(after.query("SELECT type, name, sql FROM sqlite_master ORDER BY name").all()).toEqual(schema);
    after.close();
  });
});
