import { plainHttpWarning } from "./tls/warnings";
import { bcryptStartLine, type Bcrypt } from "./accounts/bcrypt";
import { describeBuild } from "./build-info";
import { commandOn } from "./command-line";
import type { AdminWeb, Config } from "./config";
import { isLoopback, isWildcardHost, listenedAddresses, urlHost } from "./machine";
import type { ServedTls } from "./tls/served";

// What serve prints once it listens: where to open it, the certificate to install, what
// is wrong with the transport (decisions §18), the data folder, zone and backups, the
// first admin's credentials once, and on a new installation what to do next.

/** The addresses a student's phone or a lab PC on the LAN can open (IPv4, as people type them), then loopback. */
export function lanUrls(host: string, port: number, scheme: "http" | "https"): string[] {
  const addresses = isWildcardHost(host) ? [...listenedAddresses("0.0.0.0"), "127.0.0.1"] : [host];
  return addresses.map((address) => `${scheme}://${urlHost(address)}:${port}`);
}

/** `24h`, `30m`, `7d`: a backup period as the admin gave it. */
function period(milliseconds: number): string {
  const units: [number, string][] = [
    [24 * 3600_000, "hari"],
    [3600_000, "jam"],
    [60_000, "menit"],
  ];
  const [size, name] = units.find(([size]) => milliseconds % size === 0) ?? [1000, "detik"];
  return `${milliseconds / size} ${name}`;
}

const loopbackUrl = (url: string) => /\/\/(127\.|\[::1\]|localhost)/.test(url);

/**
 * Where the admin console opens (`--admin-web`), and a warning when it is open to the
 * LAN without TLS: the admin's password would cross the network readable.
 */
function adminConsoleLines(mode: AdminWeb, urls: string[], tls: boolean, dataDir: string): string[] {
  if (mode === "off") return ["Konsol admin di peramban dimatikan (--admin-web off); administrasi lewat perintah skrining."];
  const loopback = urls.find(loopbackUrl);
  if (mode === "local") {
    return [
      loopback
        ? `Konsol admin: ${loopback}/admin (hanya dari PC ini; --admin-web lan untuk membukanya dari jaringan).`
        : "Konsol admin hanya dari PC ini (--admin-web local), tetapi server tidak mendengarkan alamat loopback: jalankan dengan --host 0.0.0.0 atau 127.0.0.1.",
    ];
  }
  const lines = [`Konsol admin dapat dibuka dari jaringan kampus (--admin-web lan): ${urls.map((url) => `${url}/admin`).join(", ")}.`];
  if (!tls) {
    lines.push(
      `PERINGATAN: konsol admin terbuka ke jaringan tanpa TLS; password admin dan data mahasiswa melintas jaringan tanpa enkripsi. Jalankan '${commandOn(dataDir, "tls init")}' lalu mulai ulang serve, atau pakai --admin-web local.`,
    );
  }
  return lines;
}

/** decisions §18: the API kept on the plain port for an old app is said on every start. */
export const httpApiWarning = (plainUrls: string[], httpsUrls: string[]) =>
  `PERINGATAN: API juga dilayani tanpa enkripsi di ${plainUrls.join(", ")} (--http-api allow): password aplikasi lama melintas jaringan tanpa enkripsi. ` +
  `Arahkan aplikasi ke ${httpsUrls.join(", ")}, lalu jalankan serve tanpa --http-api allow.`;

/** How a served certificate is introduced: where phones get the CA, its fingerprint, how long the certificate lasts, and every warning. */
function tlsLines(tls: ServedTls, plainUrls: string[], httpsUrls: string[], httpApi: "refuse" | "allow"): string[] {
  const health = tls.health();
  const lanPlain = plainUrls.filter((url) => !loopbackUrl(url));
  const certificatePage = (lanPlain.length > 0 ? lanPlain : plainUrls).map((url) => `${url}/`).join(", ");
  return [
    tls.authorityCertificate()
      ? `Sertifikat CA lokal untuk ponsel dan PC lab (sekali per perangkat): ${certificatePage}; sidik jari SHA-256 ${health.sidik_jari}.`
      : `Port ${plainUrls[0]?.replace(/^.*:/, "")} tanpa enkripsi hanya menunjukkan alamat HTTPS (${certificatePage}); sidik jari SHA-256 sertifikat ${health.sidik_jari}.`,
    `Sertifikat server berlaku sampai ${health.berakhir.slice(0, 10)} (sisa ${health.hari_tersisa} hari)${tls.renewable ? "; diperbarui otomatis dari CA lokal 30 hari sebelumnya" : ""}.`,
    ...health.peringatan.map((warning) => `PERINGATAN: ${warning}`),
    ...(httpApi === "allow" ? [httpApiWarning(plainUrls, httpsUrls)] : []),
  ];
}

export interface StartFacts {
  config: Config;
  host: string;
  backups?: { folder: string; everyMilliseconds: number; keep: number; passphrase?: string };
  admin: { username: string; password: string; generated: boolean } | null;
  /** How to set the password of an admin an earlier start created but never showed. */
  reminder: string | null;
  bcrypt: Bcrypt;
  /** Where the service answers: the HTTPS URLs with TLS. */
  urls: string[];
  /** With TLS: the served certificate, the plain port's URLs and `--http-api`. */
  tls: { served: ServedTls; plainUrls: string[]; httpApi: "refuse" | "allow" } | null;
  newInstallation: boolean;
  /** Whether a terminal shows the generated password (ServeOptions.terminal). */
  terminal: boolean;
}

export function banner(start: StartFacts): string[] {
  const { config, backups, admin, tls } = start;
  const lines = [
    `${describeBuild()} berjalan${tls ? " dengan HTTPS" : ""}. Buka di peramban (browser) dari jaringan kampus:`,
    ...start.urls.filter((url) => !loopbackUrl(url)).map((url) => `  ${url}/`),
    ...start.urls.filter(loopbackUrl).map((url) => `  ${url}/  (hanya dari PC ini)`),
    ...(tls ? tlsLines(tls.served, tls.plainUrls, start.urls, tls.httpApi) : isLoopback(start.host) || start.host === "localhost" ? [] : [plainHttpWarning(config.dataDir)]),
    `Data: ${config.dataDir}; zona waktu ${config.timeZone}; ` +
      (backups
        ? `cadangan otomatis ke ${backups.folder} tiap ${period(backups.everyMilliseconds)}, ${backups.keep} terakhir disimpan, ${backups.passphrase === undefined ? "tidak terenkripsi" : "terenkripsi"}.`
        : "cadangan otomatis tidak aktif (--backup-dir)."),
    // Backups carry the token key and every student's answers, and go onto USB disks (decisions §17).
    ...(backups && backups.passphrase === undefined
      ? ['Cadangan yang dibawa keluar PC ini sebaiknya terenkripsi: jalankan dengan --backup-passphrase-file <file> (docs/operations.md, bagian "Encrypted backups").']
      : []),
    bcryptStartLine(start.bcrypt),
    ...adminConsoleLines(config.adminWeb, start.urls, tls !== null, config.dataDir),
  ];
  if (admin) {
    lines.push(
      !admin.generated
        ? `Akun admin pertama dibuat: username "${admin.username}" dengan password dari SKRINING_ADMIN_PASSWORD.`
        : start.terminal
          ? `Akun admin pertama dibuat: username "${admin.username}"; passwordnya ditampilkan sekali di bawah, di terminal ini saja (tidak di log), dan harus diganti saat masuk pertama.`
          : `Akun admin pertama dibuat: username "${admin.username}"; passwordnya tidak ditampilkan karena keluaran ini bukan terminal (bisa tersimpan di log). ` +
            `Tetapkan password: ${commandOn(config.dataDir, `accounts passwd ${admin.username}`)}`,
    );
  }
  if (start.reminder) lines.push(start.reminder);
  if (start.newInstallation) {
    lines.push(
      "Langkah berikutnya:",
      `  1. Impor daftar dosen dan mahasiswa: ${commandOn(config.dataDir, "accounts import daftar.csv")} (format kolom: README, bagian "Accounts CSV").`,
      `  2. Pilihan: daftarkan model prediksi, mis. ${commandOn(config.dataDir, "model add --type stress --file model.joblib --activate")}; tanpa model, tingkat ditentukan aturan skor.`,
      ...(backups
        ? []
        : ["  3. Jalankan dengan --backup-dir <folder> --backup-passphrase-file <file> agar data dicadangkan otomatis dan terenkripsi (docs/operations.md, bagian Backups)."]),
    );
  }
  return lines;
}
