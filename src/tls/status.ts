import { existsSync } from "node:fs";
import { commandOn } from "../command-line";
import { invalid } from "../errors";
import { lanAddresses } from "../machine";
import { daysLeft, shortAddress, type CertificateFacts } from "./certificate";
import { readPair } from "./files";
import { readAuthority, renewalDays, tlsPaths, type TlsPaths } from "./local";
import { endWarning, keyModeWarning, tlsWarnings, uncoveredAddresses } from "./warnings";

/** What `skrining tls status` says of a data folder's `tls/` (and its JSON form). */
export interface LocalTlsStatus {
  paths: TlsPaths;
  authority: CertificateFacts;
  certificate: CertificateFacts;
  daysLeft: number;
  /** Every name and address the server certificate covers, IPv6 written short. */
  names: string[];
  addresses: string[];
  warnings: string[];
}

/**
 * The local CA and server certificate of a data folder, checked as serve checks them,
 * and what is wrong: an address of the PC they do not cover, an end near or past, a key
 * others can read. A folder without `tls/` is refused with what to run.
 */
export function localTlsStatus(dataDir: string, now: Date = new Date()): LocalTlsStatus {
  const paths = tlsPaths(dataDir);
  if (!existsSync(paths.folder)) throw invalid(`Folder data ${dataDir} belum punya ${paths.folder}: jalankan '${commandOn(dataDir, "tls init")}' untuk membuat CA lokal dan sertifikat server.`);
  const authority = readAuthority(paths).facts;
  const { facts } = readPair(paths.certificate, paths.key);
  const warnings: string[] = [];
  const uncovered = uncoveredAddresses(facts, lanAddresses());
  if (uncovered.length > 0) warnings.push(tlsWarnings.uncovered(uncovered));
  const ending = endWarning(facts, now);
  if (ending) warnings.push(ending);
  if (daysLeft(authority, now) <= renewalDays) warnings.push(tlsWarnings.authorityEnding(authority, daysLeft(authority, now)));
  for (const key of [paths.key, paths.authorityKey]) {
    const readable = keyModeWarning(key);
    if (readable) warnings.push(readable);
  }
  return { paths, authority, certificate: facts, daysLeft: daysLeft(facts, now), names: facts.dnsNames, addresses: facts.ipAddresses.map(shortAddress), warnings };
}
