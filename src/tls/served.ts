import { existsSync } from "node:fs";
import type { X509Certificate } from "node:crypto";
import { conflict, invalid } from "../errors";
import type { Logger } from "../logger";
import { listenedAddresses } from "../machine";
import { daysLeft, derOf, factsOf, parseCertificate, shortAddress, type CertificateFacts } from "./certificate";
import { missingHints, readPair, readTlsFile, type CheckedPair } from "./files";
import { coverageFor, readAuthority, renewalDays, renewServerCertificate, serverCertificateDays, tlsPaths, type TlsPaths } from "./local";
import { endWarning, keyModeWarning, tlsWarnings, uncoveredAddresses } from "./warnings";

// The certificate a running server serves (decisions §18): read and checked before the
// port opens, renewed from the local CA without a restart 30 days before it ends and when
// an address it listens on is not covered, taken up again when `tls init` wrote new files,
// and described for the start-up lines, GET /health and the admin console.

/**
 * Where the certificate comes from: the data folder's `tls/` (`local`: renewed by the
 * server), or files given with --tls-cert/--tls-key (`given`: never changed by skrining).
 * `paths` is the data folder's `tls/` either way: its CA is offered to phones when it
 * signed the served certificate.
 */
export interface TlsSource {
  kind: "local" | "given";
  certificate: string;
  key: string;
  paths: TlsPaths;
}

/** What Bun.serve takes, and what the pair says. */
export type ServedPair = Omit<CheckedPair, "parsed">;

/** The `tls` object of GET /health (additive). */
export interface TlsHealth {
  berakhir: string;
  hari_tersisa: number;
  /** SHA-256 of the certificate a phone installs: the local CA's, else the served certificate's own. */
  sidik_jari: string;
  peringatan: string[];
}

/** Where serve takes its certificate from: the options, else `tls/` when the data folder has one, else nowhere (plain HTTP). */
export function tlsSourceOf(dataDir: string, options: { tlsCert?: string; tlsKey?: string }): TlsSource | null {
  if (Boolean(options.tlsCert) !== Boolean(options.tlsKey)) throw invalid("--tls-cert dan --tls-key harus diberikan bersama.");
  const paths = tlsPaths(dataDir);
  if (options.tlsCert && options.tlsKey) return { kind: "given", certificate: options.tlsCert, key: options.tlsKey, paths };
  return existsSync(paths.folder) ? { kind: "local", certificate: paths.certificate, key: paths.key, paths } : null;
}

/**
 * The certificate serve will serve, read and checked (and renewed when due) before the data
 * folder is touched, so that a refused certificate leaves nothing behind; null for plain HTTP.
 */
export async function openServedTls(
  dataDir: string,
  options: { tlsCert?: string; tlsKey?: string },
  settings: { host: string; givenNames: readonly string[]; logger: Logger },
): Promise<ServedTls | null> {
  const source = tlsSourceOf(dataDir, options);
  return source && (await ServedTls.open(source, settings));
}

export class ServedTls {
  private timer: ReturnType<typeof setInterval> | null = null;
  private checking: Promise<void> | null = null;
  /** A pair on disk that could not be taken up, by its text: said once, not at every check. */
  private refused: string | null = null;
  private refusedChecks = 0;
  /** Serves each new pair (src/http/listeners.ts); set by start(). */
  private onRenewed: (pair: ServedPair) => Promise<void> = async () => undefined;

  private constructor(
    readonly source: TlsSource,
    private served: ServedPair,
    /** The local CA that signed the served certificate, for /ca.crt; null when another CA did. */
    private authority: { parsed: X509Certificate; facts: CertificateFacts } | null,
    private readonly host: string,
    /** The names the faculty gave serve (--hostname, SKRINING_HOSTNAMES): every renewal names them. */
    private readonly givenNames: readonly string[],
    private readonly logger: Logger,
    private readonly now: () => Date,
  ) {}

  /**
   * Reads and checks the certificate before the port opens; a local one that ends within
   * 30 days or misses an address the server listens on is renewed first.
   */
  static async open(source: TlsSource, settings: { host: string; givenNames: readonly string[]; logger: Logger; now?: () => Date }): Promise<ServedTls> {
    const pair = readPair(source.certificate, source.key, missingHints[source.kind]);
    const served = new ServedTls(source, pair, authorityOf(source.paths, pair.parsed), settings.host, settings.givenNames, settings.logger, settings.now ?? (() => new Date()));
    await served.renewIfDue();
    return served;
  }

  get pair(): ServedPair {
    return this.served;
  }

  /** The CA certificate a phone installs (DER), when a local CA signed the served certificate. */
  authorityCertificate(): Uint8Array | null {
    return this.authority ? derOf(this.authority.parsed) : null;
  }

  /** The fingerprint people compare: the local CA's, else the served certificate's. */
  get fingerprint(): string {
    return (this.authority?.facts ?? this.served.facts).fingerprint;
  }

  get renewable(): boolean {
    return this.source.kind === "local" && this.authority !== null;
  }

  /** What is wrong now: an address listened on that is not covered, an end near or past, a key others can read. */
  warnings(): string[] {
    const now = this.now();
    const found: string[] = [];
    const uncovered = uncoveredAddresses(this.served.facts, listenedAddresses(this.host));
    if (uncovered.length > 0) found.push(tlsWarnings.uncovered(uncovered));
    const ending = endWarning(this.served.facts, now);
    if (ending) found.push(ending);
    if (this.authority && daysLeft(this.authority.facts, now) <= renewalDays) found.push(tlsWarnings.authorityEnding(this.authority.facts, daysLeft(this.authority.facts, now)));
    const keys = this.source.kind === "local" ? [this.source.key, this.source.paths.authorityKey] : [this.source.key];
    for (const key of keys) {
      const readable = keyModeWarning(key);
      if (readable) found.push(readable);
    }
    return found;
  }

  health(): TlsHealth {
    const { facts } = this.served;
    return { berakhir: facts.notAfter.toISOString(), hari_tersisa: daysLeft(facts, this.now()), sidik_jari: this.fingerprint, peringatan: this.warnings() };
  }

  /** Checks every `seconds`, handing each new pair to `onRenewed`; until stop(). */
  start(seconds: number, onRenewed: (pair: ServedPair) => Promise<void>): void {
    this.onRenewed = onRenewed;
    this.timer = setInterval(() => void this.check(), seconds * 1000);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.checking;
  }

  /** One check (never two at once): new files on disk are taken up, then a renewal if one is due. */
  check(): Promise<void> {
    this.checking ??= this.checkOnce()
      .catch((error) => this.logger.error(`Pemeriksaan sertifikat TLS gagal: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => (this.checking = null));
    return this.checking;
  }

  /** The admin console's "Perbarui sekarang": a new certificate from the local CA at once; `reason` goes into the log line. */
  async renewNow(reason: string): Promise<CertificateFacts> {
    await this.checking;
    if (!this.renewable) {
      throw conflict("Sertifikat ini diberikan dengan --tls-cert/--tls-key, bukan dari CA lokal skrining: perbarui berkasnya di tempat asalnya, lalu mulai ulang server.");
    }
    await this.renew(reason);
    return this.served.facts;
  }

  private async checkOnce(): Promise<void> {
    if (this.source.kind === "local") await this.takeUpFiles();
    await this.renewIfDue();
  }

  /** Files that `tls init` (or a person) wrote while the server ran are served from the next check on. */
  private async takeUpFiles(): Promise<void> {
    let next: ReturnType<typeof readPair>;
    try {
      next = readPair(this.source.certificate, this.source.key);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (this.refused !== message) this.logger.error(`${message} Server tetap memakai sertifikat yang sedang dipakai.`);
      this.refused = message;
      // A pair caught half written matches at the next check; one still broken then is replaced from the CA.
      if (++this.refusedChecks >= 2 && this.renewable) await this.renew("berkas di tls/ rusak atau tidak cocok");
      return;
    }
    this.refused = null;
    this.refusedChecks = 0;
    if (next.certificate === this.served.certificate && next.key === this.served.key) return;
    this.served = next;
    // `tls/` may hold a new CA now (the old folder moved aside, `tls init` run again): /ca.crt offers the one that signed this.
    this.authority = authorityOf(this.source.paths, next.parsed);
    this.logger.info(`Sertifikat TLS baru dari ${this.source.certificate} dipakai (berakhir ${next.facts.notAfter.toISOString().slice(0, 10)}).`);
    await this.onRenewed(next);
  }

  /** Why the served certificate should be renewed now, or null: it ends within 30 days, or misses an address listened on. */
  private dueReason(): string | null {
    if (!this.renewable || !this.authority) return null;
    const now = this.now();
    // A CA about to end would make every certificate end with it: renewing would not help (warnings() says so).
    if (daysLeft(this.authority.facts, now) <= renewalDays) return null;
    if (daysLeft(this.served.facts, now) <= renewalDays) return `berakhir dalam ${Math.max(daysLeft(this.served.facts, now), 0)} hari`;
    const uncovered = uncoveredAddresses(this.served.facts, listenedAddresses(this.host));
    return uncovered.length > 0 ? `alamat ${uncovered.map(shortAddress).join(", ")} belum tercakup` : null;
  }

  private async renewIfDue(): Promise<void> {
    const reason = this.dueReason();
    if (reason) await this.renew(reason);
  }

  /** A new certificate from the local CA for every address of the PC now (and the one listened on) and every name the old one had. */
  private async renew(reason: string): Promise<void> {
    const { paths } = this.source;
    const authority = readAuthority(paths);
    const coverage = coverageFor([...this.givenNames, ...this.served.facts.dnsNames], listenedAddresses(this.host));
    await renewServerCertificate(paths, authority.pair, coverage, serverCertificateDays, this.now());
    const renewed = readPair(paths.certificate, paths.key);
    this.served = renewed;
    this.authority = authorityOf(paths, renewed.parsed);
    this.refused = null;
    this.refusedChecks = 0;
    this.logger.info(`Sertifikat TLS diperbarui dari CA lokal (${reason}): berlaku sampai ${this.served.facts.notAfter.toISOString().slice(0, 10)}.`);
    await this.onRenewed(this.served);
  }
}

/** The local CA, when it is the one that signed the served certificate (only then is it the one to install). */
function authorityOf(paths: TlsPaths, served: X509Certificate): { parsed: X509Certificate; facts: CertificateFacts } | null {
  if (!existsSync(paths.authorityCertificate)) return null;
  const parsed = parseCertificate(readTlsFile(paths.authorityCertificate, "Sertifikat CA lokal"));
  if (!parsed || !served.checkIssued(parsed) || !served.verify(parsed.publicKey)) return null;
  return { parsed, facts: factsOf(parsed) };
}
