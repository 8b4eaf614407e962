import { Database } from "bun:sqlite";
import { existsSync, lstatSync, readFileSync, readdirSync, statSync, statfsSync } from "node:fs";
import { join } from "node:path";
import { readBackupName } from "../backup/backup-names";
import { describeBuild } from "../build-info";
import { accountName, commandOn } from "../command-line";
import { databaseFileName } from "../config";
import { databaseFiles, processesHolding } from "../db/holders";
import { appliedNumber, migrationNumber, schemaLevel } from "../db/migrate";
import { migrations } from "../db/migrations";
import { fileSize } from "../file-size";
import { isLoopback, isWildcardHost, urlHost } from "../machine";
import { readServeState, type ServeState } from "../serve-state";
import { tlsPaths } from "../tls/local";
import { localTlsStatus } from "../tls/status";
import { periodInWords } from "../period-words";

// `skrining doctor` (issue 44, item 6): what an IT person needs to know of an installation
// in one command, read without changing anything, each problem with what to do about it.
// A problem that needs action (MASALAH) makes the exit code 1; advice (SARAN) does not.

export interface Finding {
  severity: "masalah" | "saran";
  what: string;
  action: string;
}

export interface DoctorSection {
  topic: string;
  text: string;
  findings: Finding[];
}

const problem = (what: string, action: string): Finding => ({ severity: "masalah", what, action });
const advice = (what: string, action: string): Finding => ({ severity: "saran", what, action });

/** Less free space than this on the data folder's disk needs action: a full disk stops every write (507). */
export const lowSpaceBytes = 1024 ** 3;

const hours = (milliseconds: number) => Math.floor(milliseconds / 3_600_000);


/** The entries under the data folder (its photos and models among them) whose owner is not the folder's. */
function foreignFiles(dataDir: string, owner: number): string[] {
  const found: string[] = [];
  const visit = (path: string, depth: number) => {
    const stats = lstatSync(path, { throwIfNoEntry: false });
    if (!stats || stats.isSymbolicLink()) return;
    if (stats.uid !== owner) found.push(path);
    if (stats.isDirectory() && depth < 3) for (const name of readdirSync(path)) visit(join(path, name), depth + 1);
  };
  for (const name of readdirSync(dataDir)) visit(join(dataDir, name), 1);
  return found;
}

function folderSection(dataDir: string): DoctorSection {
  const stats = statSync(dataDir);
  const uid = process.getuid?.();
  if (uid === undefined) return { topic: "Folder data", text: dataDir, findings: [] };
  const owner = accountName(stats.uid).replace(/^#/, "uid ");
  const running = accountName(uid).replace(/^#/, "uid ");
  const findings: Finding[] = [];
  const foreign = foreignFiles(dataDir, stats.uid);
  if (foreign.length > 0) {
    findings.push(
      problem(
        `${foreign.length} file di folder data bukan milik ${owner} (mis. ${foreign.slice(0, 3).join(", ")}): layanan yang berjalan sebagai ${owner} tidak dapat membukanya (503 "penyimpanan hanya-baca", atau start berhenti dengan EPERM).`,
        `sudo chown -R ${owner}: ${dataDir}; jalankan perintah sebagai pemiliknya: ${commandOn(dataDir, "…")}`,
      ),
    );
  }
  if (stats.uid !== uid) findings.push(advice(`Perintah ini dijalankan sebagai ${running}, bukan pemilik folder data.`, `Perintah yang menulis jalankan sebagai pemiliknya: ${commandOn(dataDir, "…")}`));
  return { topic: "Folder data", text: `${dataDir}, milik ${owner}; perintah ini dijalankan sebagai ${running}`, findings };
}

function schemaSection(dataDir: string): DoctorSection {
  const database = join(dataDir, databaseFileName);
  const program = migrationNumber(migrations.at(-1)?.tag);
  if (!existsSync(database)) {
    return { topic: "Basis data", text: `${database} tidak ada`, findings: [problem("Folder data tanpa basis data.", `Periksa --data; atau pulihkan cadangan terakhir: ${commandOn(dataDir, "restore <arsip> --force")}`)] };
  }
  const sqlite = new Database(database, { readonly: true });
  let applied: number;
  let newest: number | null;
  try {
    ({ applied, lastCreatedAt: newest } = schemaLevel(sqlite));
  } finally {
    sqlite.close();
  }
  const level = appliedNumber(applied);
  const text = `skema migrasi ${level}; program ini ${program}`;
  if ((newest ?? 0) > (migrations.at(-1)?.createdAt ?? 0)) {
    return { topic: "Basis data", text, findings: [problem("Skemanya lebih baru dari program ini: dimigrasi oleh versi yang lebih baru.", `Jalankan versi yang lebih baru itu, atau kembalikan salinan sebelum migrasi: ${commandOn(dataDir, "rollback")}`)] };
  }
  if (applied < migrations.length) {
    return { topic: "Basis data", text, findings: [problem("Skemanya lebih lama: perlu dimigrasi sebelum dipakai versi ini.", `Mulai ulang layanan (serve memigrasinya), atau hentikan layanan lalu: ${commandOn(dataDir, "migrate")}`)] };
  }
  return { topic: "Basis data", text: `${text} (sesuai)`, findings: [] };
}

function spaceSection(dataDir: string): DoctorSection {
  const stats = statfsSync(dataDir);
  const free = stats.bavail * stats.bsize;
  const total = stats.blocks * stats.bsize;
  const text = `${fileSize(free)} bebas dari ${fileSize(total)} di disk folder data`;
  if (free >= lowSpaceBytes) return { topic: "Ruang disk", text, findings: [] };
  return { topic: "Ruang disk", text, findings: [problem(`Kurang dari ${fileSize(lowSpaceBytes)} bebas: disk yang penuh menolak setiap penyimpanan (507).`, "Kosongkan ruang disk: log lama, cadangan lama di disk yang sama, backups/ di folder data.")] };
}

/** What /health answers, or why it did not. */
async function askHealth(state: ServeState, dataDir: string): Promise<{ url: string; answer?: { status: string; version: string }; error?: string }> {
  const host = isWildcardHost(state.host) ? "127.0.0.1" : state.host;
  const url = state.httpsPort === null ? `http://${urlHost(host)}:${state.port}/health` : `https://${urlHost(host)}:${state.httpsPort}/health`;
  const authority = tlsPaths(dataDir).authorityCertificate;
  const ca = state.httpsPort !== null && existsSync(authority) ? readFileSync(authority, "utf8") : undefined;
  try {
    // The server's own certificate is checked against the local CA when there is one; a given one (--tls-cert) is read as it is, on this PC.
    const response = await fetch(url, { signal: AbortSignal.timeout(3000), tls: ca ? { ca } : { rejectUnauthorized: false } });
    return { url, answer: (await response.json()) as { status: string; version: string } };
  } catch (error) {
    return { url, error: error instanceof Error ? error.message : String(error) };
  }
}

const startHint = process.platform === "win32" ? '"C:\\Program Files\\skrining\\skrining-service.exe" start' : "sudo systemctl start skrining";

async function serverSections(dataDir: string, state: ServeState | null): Promise<DoctorSection[]> {
  const database = join(dataDir, databaseFileName);
  const holders = existsSync(database) ? processesHolding(databaseFiles(database)) : [];
  const running = state !== null && holders.includes(state.pid);
  const sections: DoctorSection[] = [];
  if (!state) {
    sections.push({
      topic: "Server",
      text: holders.length > 0 ? `basis data dibuka oleh proses ${holders.join(", ")}; server belum pernah dijalankan dengan versi ini` : "belum pernah dijalankan dengan versi ini pada folder data ini",
      findings: [problem("Tidak ada server versi ini yang berjalan pada folder data ini.", `${startHint} (atau ${commandOn(dataDir, "serve")})`)],
    });
    return sections;
  }
  if (!running) {
    sections.push({ topic: "Server", text: `tidak berjalan (terakhir dimulai ${state.startedAt}, proses ${state.pid}, ${state.program})`, findings: [problem("Server tidak berjalan: mahasiswa dan dosen tidak dapat membuka skrining.", `${startHint}; bila tidak mau mulai, baca journalctl -u skrining -n 50 (Windows: skrining-service.err.log)`)] });
  } else {
    const health = await askHealth(state, dataDir);
    const findings: Finding[] = [];
    if (!health.answer) findings.push(problem(`Server berjalan (proses ${state.pid}) tetapi ${health.url} tidak menjawab: ${health.error}.`, "Periksa log layanan; bila macet, mulai ulang layanan."));
    else if (health.answer.status !== "ok") findings.push(problem(`${health.url} menjawab status ${health.answer.status}: basis data tidak dapat dipakai penuh.`, "Baca log layanan (sekali saat masalah mulai); lihat docs/operations.md, bagian Monitoring."));
    else if (`skrining ${health.answer.version}` !== describeBuild().split(" (")[0]) {
      findings.push(problem(`Server yang berjalan adalah versi ${health.answer.version}, bukan versi executable ini.`, "Mulai ulang layanan agar versi yang terpasang yang berjalan."));
    }
    sections.push({ topic: "Server", text: `berjalan (proses ${state.pid}) sejak ${state.startedAt}; ${health.url} ${health.answer ? `menjawab ${health.answer.status}` : "tidak menjawab"}`, findings });
  }
  const listens = isWildcardHost(state.host) ? "semua alamat PC ini" : state.host;
  sections.push({
    topic: "Port",
    text: state.httpsPort === null ? `${state.port} (HTTP) di ${listens}` : `${state.httpsPort} (HTTPS) dan ${state.port} (halaman sertifikat, tanpa enkripsi) di ${listens}`,
    findings: [],
  });
  sections.push(consoleSection(state));
  return sections;
}

function consoleSection(state: ServeState): DoctorSection {
  const scheme = state.httpsPort === null ? "http" : "https";
  const port = state.httpsPort ?? state.port;
  const loopback = isWildcardHost(state.host) || isLoopback(state.host);
  if (state.adminWeb === "off") return { topic: "Konsol admin", text: "dimatikan (--admin-web off)", findings: [] };
  if (state.adminWeb === "local") {
    if (!loopback) return { topic: "Konsol admin", text: "hanya dari PC ini (--admin-web local)", findings: [problem("Server tidak mendengarkan alamat loopback, jadi konsol tidak dapat dibuka di mana pun.", "Jalankan serve dengan --host 0.0.0.0 (atau 127.0.0.1), atau --admin-web lan dengan HTTPS.")] };
    return { topic: "Konsol admin", text: `${scheme}://127.0.0.1:${port}/admin, hanya dari PC ini (--admin-web local)`, findings: [] };
  }
  const findings = state.httpsPort === null ? [problem("Konsol terbuka ke jaringan tanpa HTTPS: password admin melintas jaringan tanpa enkripsi.", "Jalankan 'skrining tls init' lalu mulai ulang serve, atau pakai --admin-web local.")] : [];
  return { topic: "Konsol admin", text: `juga dari jaringan kampus (--admin-web lan), ${scheme}://<alamat PC>:${port}/admin`, findings };
}

function backupSection(state: ServeState | null, now: number): DoctorSection {
  if (!state) return { topic: "Cadangan", text: "belum diketahui: server versi ini belum pernah dijalankan pada folder data ini", findings: [] };
  const schedule = state.backups;
  if (!schedule) {
    return { topic: "Cadangan", text: "otomatis tidak aktif", findings: [problem("Server dijalankan tanpa cadangan otomatis: disk yang rusak menghilangkan semua data.", "Jalankan serve dengan --backup-dir <folder di disk lain> --backup-passphrase-file <file> (unit layanan di deploy/ sudah memakainya; docs/operations.md, bagian Backups).")] };
  }
  const backups = existsSync(schedule.folder)
    ? readdirSync(schedule.folder).flatMap((name) => {
        const read = readBackupName(name);
        return read ? [{ name, ...read }] : [];
      })
    : [];
  backups.sort((a, b) => b.began - a.began);
  const newest = backups[0];
  const newestScheduled = backups.find((backup) => backup.kind === "terjadwal");
  const next = Math.max(now, (newestScheduled?.began ?? now - schedule.everyMilliseconds) + schedule.everyMilliseconds);
  const findings: Finding[] = [];
  if (!existsSync(schedule.folder)) findings.push(problem(`Folder cadangan ${schedule.folder} tidak ada (disk tidak terpasang?).`, "Pasang disk cadangan atau buat folder itu, lalu mulai ulang layanan."));
  else if (!newest) findings.push(problem("Belum ada cadangan di folder cadangan.", "Lihat log layanan (baris 'Cadangan otomatis … gagal'); periksa izin tulis folder cadangan."));
  else if (now - newest.began > 2 * schedule.everyMilliseconds) {
    findings.push(problem(`Cadangan terakhir sudah ${hours(now - newest.began)} jam, lebih dari dua kali jadwalnya.`, "Lihat log layanan (baris 'Cadangan otomatis … gagal'); pastikan disk cadangan terpasang dan tidak penuh."));
  }
  if (!schedule.encrypted) findings.push(advice("Cadangan tidak terenkripsi: salinan yang dibawa keluar PC dapat dibaca siapa pun.", "Jalankan serve dengan --backup-passphrase-file <file> (docs/operations.md, bagian Encrypted backups)."));
  const last = newest ? `terakhir ${new Date(newest.began).toISOString()} (${hours(now - newest.began)} jam lalu, ${newest.name})` : "belum ada";
  return {
    topic: "Cadangan",
    text: `otomatis ke ${schedule.folder} tiap ${periodInWords(schedule.everyMilliseconds)}, ${schedule.keep} terbaru disimpan, ${schedule.encrypted ? "terenkripsi" : "tidak terenkripsi"}; ${last}; berikutnya sekitar ${new Date(next).toISOString()}`,
    findings,
  };
}

function certificateSection(dataDir: string, state: ServeState | null, now: Date): DoctorSection {
  if (!existsSync(tlsPaths(dataDir).folder)) {
    const lanOnly = state !== null && (isLoopback(state.host) || state.host === "localhost");
    if (lanOnly) return { topic: "Sertifikat", text: "tanpa HTTPS; server hanya mendengarkan PC ini", findings: [] };
    return { topic: "Sertifikat", text: "tanpa HTTPS (tidak ada tls/)", findings: [problem("Password dan data mahasiswa melintas Wi-Fi kampus tanpa enkripsi; ponsel tidak mendapat mode offline.", `${commandOn(dataDir, "tls init")}, lalu mulai ulang layanan`)] };
  }
  try {
    const status = localTlsStatus(dataDir, now);
    return {
      topic: "Sertifikat",
      text: `berlaku sampai ${status.certificate.notAfter.toISOString().slice(0, 10)} (${status.daysLeft} hari lagi); sidik jari SHA-256 CA lokal ${status.authority.fingerprint}`,
      findings: status.warnings.map((warning) => problem(warning, `${commandOn(dataDir, "tls init")} (serve memakai sertifikat baru dalam semenit), atau Perbarui sekarang di konsol (Sertifikat)`)),
    };
  } catch (error) {
    return { topic: "Sertifikat", text: "tls/ tidak dapat dipakai", findings: [problem(error instanceof Error ? error.message : String(error), `Pindahkan tls/ ke samping, lalu ${commandOn(dataDir, "tls init")}`)] };
  }
}

/** Everything doctor says of the data folder `dataDir`, section by section, read without changing anything. */
export async function diagnose(dataDir: string, now: Date = new Date()): Promise<DoctorSection[]> {
  const sections: DoctorSection[] = [{ topic: "Versi", text: describeBuild(), findings: [] }];
  if (!existsSync(dataDir)) {
    sections.push({ topic: "Folder data", text: `${dataDir} tidak ada`, findings: [problem("Folder data tidak ada.", "Periksa --data (atau SKRINING_DATA): folder data layanan, mis. /var/lib/skrining atau C:\\ProgramData\\skrining\\data.")] });
    return sections;
  }
  const state = readServeState(dataDir);
  sections.push(folderSection(dataDir), schemaSection(dataDir), spaceSection(dataDir));
  sections.push(...(await serverSections(dataDir, state)));
  sections.push(backupSection(state, now.getTime()), certificateSection(dataDir, state, now));
  return sections;
}
