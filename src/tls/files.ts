import { chmodSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import type { X509Certificate } from "node:crypto";
import { invalid } from "../errors";
import { factsOf, parseCertificate, parsePrivateKey, type CertificateFacts } from "./certificate";

// The files of a certificate and its key: written whole and privately, read with a
// one-line reason when they cannot be used (decisions §18: a configuration error, exit 1).

/** A certificate with its key, both PEM, and what the certificate says. */
export interface CheckedPair {
  certificate: string;
  key: string;
  facts: CertificateFacts;
  parsed: X509Certificate;
}

/**
 * Writes a file of `tls/` whole or not at all: a new file beside it, readable by the owner
 * only whatever the umask, renamed over the old one.
 */
export function writePrivately(path: string, text: string): void {
  const next = `${path}.tmp`;
  rmSync(next, { force: true });
  writeFileSync(next, text, { mode: 0o600, flag: "wx" });
  chmodSync(next, 0o600);
  renameSync(next, path);
}

/** What to do about a file that is not there: make `tls/`, or check the options that named it. */
export const missingHints = {
  local: "Jalankan 'skrining tls init' untuk membuatnya (docs/operations.md, bagian HTTPS).",
  given: "Periksa --tls-cert dan --tls-key.",
} as const;

/** Reads a file of a certificate or a key, naming it and what to do when it cannot be read. */
export function readTlsFile(path: string, what: string, missingHint: string = missingHints.local): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw invalid(`${what} ${path} tidak ada. ${missingHint}`);
    throw invalid(`${what} ${path} tidak dapat dibaca (${code ?? String(error)}): periksa pemilik dan izin berkasnya.`);
  }
}

/**
 * The certificate and key at these paths, checked as a pair: a missing, unreadable or
 * malformed file, or a key of another certificate, is a configuration error (one line,
 * exit 1) naming the file and what to do.
 */
export function readPair(certificatePath: string, keyPath: string, missingHint?: string): CheckedPair {
  const certificate = readTlsFile(certificatePath, "Sertifikat TLS", missingHint);
  const key = readTlsFile(keyPath, "Kunci TLS", missingHint);
  const parsed = parseCertificate(certificate);
  if (!parsed) throw invalid(`${certificatePath} bukan sertifikat TLS (PEM, diawali -----BEGIN CERTIFICATE-----).`);
  const privateKey = parsePrivateKey(key);
  if (!privateKey) throw invalid(`${keyPath} bukan kunci privat (PEM, diawali -----BEGIN PRIVATE KEY-----).`);
  if (!parsed.checkPrivateKey(privateKey)) throw invalid(`Kunci ${keyPath} bukan pasangan sertifikat ${certificatePath}: berikan kunci yang dibuat bersama sertifikat itu.`);
  return { certificate, key, facts: factsOf(parsed), parsed };
}
