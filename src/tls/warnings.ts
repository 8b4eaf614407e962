import { statSync } from "node:fs";
import { basename } from "node:path";
import { covers, daysLeft, shortAddress, type CertificateFacts } from "./certificate";
import { renewalDays } from "./local";
import { commandOn } from "../command-line";

// What is wrong with a certificate in use, in the words the start-up lines, `tls status`,
// GET /health and the admin console all print (decisions §18): one place for the texts.

const dateOf = (date: Date) => date.toISOString().slice(0, 10);

/** The addresses among `addresses` a certificate does not name. */
export function uncoveredAddresses(facts: CertificateFacts, addresses: readonly string[]): string[] {
  return addresses.filter((address) => !covers(facts, address));
}

export const tlsWarnings = {
  uncovered: (addresses: readonly string[]) =>
    `Sertifikat TLS tidak mencakup alamat ${addresses.map(shortAddress).join(", ")} yang didengarkan server: peramban yang membukanya menolak sambungan. ` +
    "Perbarui sertifikat (skrining tls init, atau Sertifikat di konsol admin).",
  ended: (facts: CertificateFacts) => `Sertifikat TLS sudah berakhir pada ${dateOf(facts.notAfter)}: peramban menolak sambungan HTTPS. Jalankan 'skrining tls init'.`,
  ending: (facts: CertificateFacts, days: number) =>
    `Sertifikat TLS berakhir dalam ${days} hari (${dateOf(facts.notAfter)}). Perbarui sebelum itu: 'skrining tls init', atau Sertifikat di konsol admin.`,
  authorityEnding: (facts: CertificateFacts, days: number) =>
    `CA lokal berakhir dalam ${days} hari (${dateOf(facts.notAfter)}): sertifikat server tidak dapat diperbarui lagi. Buat CA baru (docs/operations.md, bagian HTTPS) dan pasang di ponsel dan PC lab.`,
  // By its file name only: GET /health, which needs no token, names no path of the PC.
  readableKey: (path: string, mode: number) =>
    `Kunci privat ${basename(path)} dapat dibaca pengguna lain (izin ${(mode & 0o777).toString(8).padStart(4, "0")}): jalankan chmod 600 pada berkas itu.`,
} as const;

/** The warning about a certificate's end, if it ends within renewalDays or has ended. */
export function endWarning(facts: CertificateFacts, now: Date): string | null {
  const days = daysLeft(facts, now);
  if (facts.notAfter.getTime() <= now.getTime()) return tlsWarnings.ended(facts);
  return days <= renewalDays ? tlsWarnings.ending(facts, days) : null;
}

/**
 * The warning about a private key that others than its owner may read (group or others
 * have read permission). Windows has no such mode bits: its files are guarded by ACLs,
 * which the data folder's place (ProgramData, the service's account) decides.
 */
export function keyModeWarning(path: string, platform: NodeJS.Platform = process.platform): string | null {
  if (platform === "win32") return null;
  try {
    const { mode } = statSync(path);
    return (mode & 0o044) !== 0 ? tlsWarnings.readableKey(path, mode) : null;
  } catch {
    // A key that cannot be looked at is reported where it is read.
    return null;
  }
}

/** decisions §18: serving a LAN address without TLS is said on every start, with what to run (on this data folder, issue 44). */
export const plainHttpWarning = (dataDir: string) =>
  "PERINGATAN: tanpa TLS, password dan data mahasiswa melintas jaringan kampus tanpa enkripsi (siapa pun di Wi-Fi yang sama dapat membacanya), dan ponsel tidak mendapat mode offline. " +
  `Jalankan '${commandOn(dataDir, "tls init")}', lalu mulai ulang serve untuk HTTPS (docs/operations.md, bagian HTTPS).`;
