import { chmodSync, existsSync, mkdirSync } from "node:fs";
import { isIP } from "node:net";
import { hostname } from "node:os";
import { join } from "node:path";
import { syncFolder } from "../folder-sync";
import { lanAddresses, ownHostNames, sameAddress } from "../machine";
import { invalid } from "../errors";
import { factsOf, parseCertificate, parsePrivateKey, type CertificateFacts } from "./certificate";
import { readTlsFile, writePrivately } from "./files";
import type { Coverage, KeyPair } from "./issuer";

// The data folder's `tls/` (decisions §18): a local certificate authority and the server
// certificate it signed, as `skrining tls init` makes them and `serve` renews them.

/** How long the local CA lasts: ten years, so that the phones that trust it never need it again. */
export const authorityDays = 3650;
/** The longest a server certificate lasts: what browsers accept of any certificate (398 days, one kept in hand). */
export const serverCertificateDays = 397;
/** A certificate that ends within this many days is renewed by serve and named in its warnings. */
export const renewalDays = 30;

export const tlsFolderName = "tls";

export interface TlsPaths {
  folder: string;
  authorityCertificate: string;
  authorityKey: string;
  certificate: string;
  key: string;
}

export function tlsPaths(dataDir: string): TlsPaths {
  const folder = join(dataDir, tlsFolderName);
  return {
    folder,
    authorityCertificate: join(folder, "ca.crt"),
    authorityKey: join(folder, "ca.key"),
    certificate: join(folder, "server.crt"),
    key: join(folder, "server.key"),
  };
}

/**
 * What the server certificate names (decisions §18): `localhost`, the loopback addresses,
 * every LAN address of the PC (and `moreAddresses`: one serve listens on), its host names and
 * the names the faculty gave, each once.
 */
export function coverageFor(givenNames: readonly string[], moreAddresses: readonly string[] = []): Coverage {
  const addresses = ["127.0.0.1", "::1", ...lanAddresses(), ...moreAddresses.filter((address) => isIP(address) !== 0)];
  return {
    dnsNames: [...new Set(["localhost", ...ownHostNames(), ...givenNames])],
    ipAddresses: addresses.filter((address, index) => addresses.findIndex((other) => sameAddress(other, address)) === index),
  };
}



/** The local CA of a data folder: its certificate and key, read and checked. */
export function readAuthority(paths: TlsPaths): { pair: KeyPair; facts: CertificateFacts } {
  const certificate = readTlsFile(paths.authorityCertificate, "Sertifikat CA lokal");
  const key = readTlsFile(paths.authorityKey, "Kunci CA lokal");
  const parsed = parseCertificate(certificate);
  if (!parsed || !parsed.ca) throw invalid(`${paths.authorityCertificate} bukan sertifikat CA (PEM). Pindahkan folder ${paths.folder} ke tempat lain lalu jalankan 'skrining tls init' untuk membuat CA baru.`);
  const privateKey = parsePrivateKey(key);
  if (!privateKey || !parsed.checkPrivateKey(privateKey)) throw invalid(`Kunci ${paths.authorityKey} bukan pasangan sertifikat ${paths.authorityCertificate}.`);
  return { pair: { certificate, key }, facts: factsOf(parsed) };
}

/**
 * The issuer, after the Reflect polyfill that @peculiar/x509 checks for when it loads: one
 * import after the other, since a bundle may run a static `import "reflect-metadata"` after
 * the library it stands before (it did in the compiled executable).
 */
async function loadIssuer(): Promise<typeof import("./issuer")> {
  await import("reflect-metadata");
  return await import("./issuer");
}

/** What `tls init` did: whether it made the CA (else it kept the one there), and the two certificates now in `tls/`. */
export interface InitOutcome {
  authorityCreated: boolean;
  authority: CertificateFacts;
  certificate: CertificateFacts;
}

/**
 * `skrining tls init`: the CA when `tls/` has none (kept when it has one: the phones that
 * trust it go on trusting), then a new server certificate for `coverage`, valid `days`.
 */
export async function initialiseTls(dataDir: string, coverage: Coverage, days: number, now: Date = new Date()): Promise<InitOutcome> {
  const paths = tlsPaths(dataDir);
  mkdirSync(paths.folder, { recursive: true, mode: 0o700 });
  chmodSync(paths.folder, 0o700);
  const hasAuthority = existsSync(paths.authorityCertificate) || existsSync(paths.authorityKey);
  const { createAuthority } = await loadIssuer();
  let authority: KeyPair;
  if (hasAuthority) {
    authority = readAuthority(paths).pair;
  } else {
    authority = await createAuthority(hostname(), now, authorityDays);
    // The key first: a CA certificate without its key would look like a CA that cannot sign.
    writePrivately(paths.authorityKey, authority.key);
    writePrivately(paths.authorityCertificate, authority.certificate);
  }
  const certificate = await renewServerCertificate(paths, authority, coverage, days, now);
  return { authorityCreated: !hasAuthority, authority: factsOf(parseCertificate(authority.certificate)!), certificate };
}

/**
 * A new server certificate from the local CA, written over the old one: the key first,
 * then the certificate, so that a reader between the two sees a pair that does not match
 * (and waits) rather than a certificate whose key is gone.
 */
export async function renewServerCertificate(paths: TlsPaths, authority: KeyPair, coverage: Coverage, days: number, now: Date = new Date()): Promise<CertificateFacts> {
  const { issueServerCertificate } = await loadIssuer();
  const issued = await issueServerCertificate(authority, coverage, now, days);
  writePrivately(paths.key, issued.key);
  writePrivately(paths.certificate, issued.certificate);
  syncFolder(paths.folder);
  return factsOf(parseCertificate(issued.certificate)!);
}
