import { afterEach, describe, expect, test } from "bun:test";
import { temporaryDir } from "../helpers";
import { cli, csvFile, outputLines, rowCounts, serviceOn, userRow, withDatabase } from "./support";

// decisions §7: importing the same roster again is safe.

const roster = `role,username,password,nim,nip,nama,jurusan,angkatan,kelas,nip_doswal,ipk,usia,gender,activated
dosen,dsn.wali,dosen-awal-1,,D1,Dosen Wali,,,,,,,,true
mahasiswa,aktif,mhs-awal-01,N1,,Mahasiswa Aktif,Informatika,2023,TI-A,D1,3.45,20,Laki-laki,false
mahasiswa,belum,mhs-awal-02,N2,,Mahasiswa Belum,Informatika,2023,TI-A,D1,3.10,19,Perempuan,false
admin,operator,admin-awal-1,,,,,,,,,,,true
`;

interface StudentProfile {
  nama_mahasiswa: string | null;
  kelas: string | null;
  IPK: number | null;
  usia: number | null;
  gender: string | null;
  NIP_doswal: string | null;
  jurusan: string | null;
}

function profile(dataDir: string, nim: string): StudentProfile {
  return withDatabase(dataDir, (db) =>
    db
      .query<StudentProfile, [string]>(
        `SELECT m.nama_mahasiswa, m.kelas, m.IPK, m.usia, m.gender, m.NIP_doswal, j.nama_jurusan AS jurusan
           FROM mahasiswa m LEFT JOIN jurusan j ON j.Id_Jurusan = m.id_jurusan WHERE m.NIM = ?`,
      )
      .get(nim)!,
  );
}

/** Every row of the tables an import writes, to show that an import changed nothing at all. */
function snapshot(dataDir: string): unknown {
  return withDatabase(dataDir, (db) =>
    ["users", "dosen", "mahasiswa", "jurusan", "sessions"].map((table) => db.query(`SELECT * FROM ${table} ORDER BY 1`).all()),
  );
}

const services: { close(): void }[] = [];
afterEach(() => {
  for (const service of services.splice(0)) service.close();
});

/**
 * A roster imported once; `aktif` then activated itself and changed its password through
 * the API, and is logged in. `belum` has not activated.
 */
async function rosterInUse() {
  const dataDir = temporaryDir();
  const first = await cli(dataDir, ["accounts", "import", csvFile(roster)]);
  expect(first.stderr).toBe("");
  expect(first.stdout).toMatch(/^Impor selesai: 4 akun dibuat, 0 diperbarui, 0 tidak berubah \(\d+\.\d s\)\.$/m);
  const service = serviceOn(dataDir);
  services.push(service);
  expect(await service.activate("aktif", "mhs-awal-01")).toBe(200);
  const session = await service.login("aktif", "mhs-awal-01");
  expect(session.status).toBe(200);
  const changed = await cli(dataDir, ["accounts", "passwd", "aktif"], { stdin: "sandi-pilihan-sendiri\n" });
  expect(changed.exitCode).toBe(0);
  const login = await service.login("aktif", "sandi-pilihan-sendiri");
  expect(login.status).toBe(200);
  const lecturer = await service.login("dsn.wali", "dosen-awal-1");
  expect(lecturer.status).toBe(200);
  return { dataDir, service, student: { access: login.access!, refresh: login.refresh! }, lecturer: { access: lecturer.access!, refresh: lecturer.refresh! } };
}

describe("importing the same roster again", () => {
  test("changes nothing: no write, everything counted unchanged, the student keeps their own password, activation and session", async () => {
    const { dataDir, service, student } = await rosterInUse();
    const before = snapshot(dataDir);

    const again = await cli(dataDir, ["accounts", "import", csvFile(roster)]);
    expect(again.stderr).toBe("");
    expect(again.exitCode).toBe(0);
    expect(outputLines(again.stdout)).toEqual([expect.stringMatching(/^Impor selesai: 0 akun dibuat, 0 diperbarui, 4 tidak berubah \(\d+\.\d s\)\.$/)]);
    expect(snapshot(dataDir)).toEqual(before);

    // The roster says activated=false and has the initial password: neither applies to an existing account.
    expect(userRow(dataDir, "aktif")!.is_activated).toBe(1);
    expect((await service.login("aktif", "mhs-awal-01")).status).toBe(401);
    expect((await service.login("aktif", "sandi-pilihan-sendiri")).status).toBe(200);
    expect(await service.me(student.access)).toBe(200);
    expect(await service.refresh(student.refresh)).toBe(200);
    // The student who has not activated still activates with the initial password.
    expect(await service.activate("belum", "mhs-awal-02")).toBe(200);
  });

  test("a changed profile field updates that account only; a different password is ignored without --reset-passwords", async () => {
    const { dataDir, service, student } = await rosterInUse();
    const hashes = Object.fromEntries(["aktif", "belum", "dsn.wali", "operator"].map((username) => [username, userRow(dataDir, username)!.password_hash]));
    const changed = roster
      .replace("mahasiswa,aktif,mhs-awal-01,N1,,Mahasiswa Aktif,Informatika,2023,TI-A", "mahasiswa,aktif,sandi-baru-roster,N1,,Mahasiswa Aktif,Sistem Informasi,2023,TI-B")
      .replace("dosen,dsn.wali,dosen-awal-1,,D1,Dosen Wali", "dosen,dsn.wali,dosen-baru-roster,,D1,Dr. Dosen Wali");

    const result = await cli(dataDir, ["accounts", "import", csvFile(changed)]);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^Impor selesai: 0 akun dibuat, 2 diperbarui, 2 tidak berubah \(/);

    expect(profile(dataDir, "N1")).toMatchObject({ jurusan: "Sistem Informasi", kelas: "TI-B", nama_mahasiswa: "Mahasiswa Aktif", IPK: 3.45 });
    expect(profile(dataDir, "N2")).toMatchObject({ jurusan: "Informatika", kelas: "TI-A" });
    withDatabase(dataDir, (db) => expect(db.query("SELECT nama_dosen FROM dosen WHERE NIP = 'D1'").get()).toEqual({ nama_dosen: "Dr. Dosen Wali" }));
    for (const [username, hash] of Object.entries(hashes)) expect(userRow(dataDir, username)!.password_hash).toBe(hash);
    expect((await service.login("aktif", "sandi-baru-roster")).status).toBe(401);
    expect((await service.login("dsn.wali", "dosen-baru-roster")).status).toBe(401);
    expect(await service.me(student.access)).toBe(200);
  });

  test("empty cells and an empty password leave an existing account as it is", async () => {
    const { dataDir } = await rosterInUse();
    const before = snapshot(dataDir);
    const result = await cli(dataDir, ["accounts", "import", csvFile("role,username,password,nim,nama,ipk,gender,activated\nmahasiswa,aktif,,N1,,,,\nmahasiswa,belum,,N2,,,,\n")]);
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(/^Impor selesai: 0 akun dibuat, 0 diperbarui, 2 tidak berubah \(/);
    expect(snapshot(dataDir)).toEqual(before);
  });

  test("new rows are created with their own activation beside existing ones left unchanged", async () => {
    const { dataDir } = await rosterInUse();
    const withNewcomers = `${roster}mahasiswa,baru.aktif,mhs-awal-03,N3,,Baru Aktif,Teknik Sipil,2024,TS-A,D1,,,,true\nmahasiswa,baru.belum,mhs-awal-04,N4,,Baru Belum,,2024,,,,,,\n`;
    const result = await cli(dataDir, ["accounts", "import", csvFile(withNewcomers)]);
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(/^Impor selesai: 2 akun dibuat, 0 diperbarui, 4 tidak berubah \(/);
    expect(userRow(dataDir, "baru.aktif")!.is_activated).toBe(1);
    expect(userRow(dataDir, "baru.belum")!.is_activated).toBe(0);
    expect(profile(dataDir, "N3")).toMatchObject({ jurusan: "Teknik Sipil", NIP_doswal: "D1" });
    expect(rowCounts(dataDir)).toEqual({ users: 6, dosen: 1, mahasiswa: 4, jurusan: 2 });
  });

  test("activated=true does not activate an existing inactive account; the summary says so and how to activate", async () => {
    const { dataDir, service } = await rosterInUse();
    const deactivated = await cli(dataDir, ["accounts", "deactivate", "aktif"]);
    expect(deactivated.exitCode).toBe(0);
    const before = snapshot(dataDir);

    const result = await cli(dataDir, ["accounts", "import", csvFile(roster.replaceAll(",false\n", ",true\n"))]);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    const lines = outputLines(result.stdout);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^Impor selesai: 0 akun dibuat, 0 diperbarui, 4 tidak berubah \(/);
    expect(lines[1]).toStartWith("Catatan: 2 akun lama tetap belum aktif");
    expect(lines[1]).toContain(`skrining --data ${dataDir} accounts activate <username>`);
    expect(snapshot(dataDir)).toEqual(before);
    expect((await service.login("aktif", "sandi-pilihan-sendiri")).status).toBe(403);
    expect((await service.login("belum", "mhs-awal-02")).status).toBe(403);
  });
});

describe("accounts import --reset-passwords", () => {
  test("sets the file's password on existing accounts and ends their sessions; accounts without a password cell keep theirs", async () => {
    const { dataDir, service, student, lecturer } = await rosterInUse();
    const operatorHash = userRow(dataDir, "operator")!.password_hash;
    const file = csvFile(`role,username,password,nim,nip,nama
mahasiswa,aktif,sandi-reset-01,N1,,
dosen,dsn.wali,,,D1,
admin,operator,,,,
mahasiswa,baru,sandi-baru-01,N5,,Baru
`);
    const result = await cli(dataDir, ["accounts", "import", "--reset-passwords", file]);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^Impor selesai: 1 akun dibuat, 1 diperbarui, 2 tidak berubah; password 1 akun lama diganti dan sesinya diakhiri \(/);

    expect(await service.me(student.access)).toBe(401);
    expect(await service.refresh(student.refresh)).toBe(401);
    expect((await service.login("aktif", "sandi-pilihan-sendiri")).status).toBe(401);
    expect((await service.login("aktif", "sandi-reset-01")).status).toBe(200);
    // Still activated: a reset is not a new activation.
    expect(userRow(dataDir, "aktif")!.is_activated).toBe(1);

    expect(await service.me(lecturer.access)).toBe(200);
    expect((await service.login("dsn.wali", "dosen-awal-1")).status).toBe(200);
    expect(userRow(dataDir, "operator")!.password_hash).toBe(operatorHash);
    expect(await service.activate("baru", "sandi-baru-01")).toBe(200);
  });

  test("a refused file resets nothing and ends no session", async () => {
    const { dataDir, service, student } = await rosterInUse();
    const before = snapshot(dataDir);
    const result = await cli(dataDir, ["accounts", "import", "--reset-passwords", csvFile("role,username,password,nim\nmahasiswa,aktif,sandi-reset-01,N1\nmahasiswa,salah,pendek,N9\n")]);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe("");
    expect(snapshot(dataDir)).toEqual(before);
    expect(await service.me(student.access)).toBe(200);
  });
});
