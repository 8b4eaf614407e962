import { X509Certificate, createPrivateKey, type KeyObject } from "node:crypto";
import { isIP } from "node:net";
import { sameAddress } from "../machine";

// Certificates read back with Node's own X509Certificate: what one names, how long it lasts,
// its fingerprint, and whether a key belongs to it. Making them is src/tls/issuer.ts's job.

/** What a certificate says, in the terms the start-up lines, `tls status` and /health use. */
export interface CertificateFacts {
  subject: string;
  issuer: string;
  /** The DNS names of its subjectAltName. */
  dnsNames: string[];
  /** The IP addresses of its subjectAltName, as Node writes them (IPv6 in full). */
  ipAddresses: string[];
  notBefore: Date;
  notAfter: Date;
  /** SHA-256 of the certificate (DER), in the colon-separated hex that phones and browsers show. */
  fingerprint: string;
  isAuthority: boolean;
}

const day = 24 * 3600 * 1000;

/** The first certificate of a PEM text (a chain file starts with the server's own), or null when there is none. */
export function parseCertificate(pem: string): X509Certificate | null {
  try {
    return new X509Certificate(pem);
  } catch {
    return null;
  }
}

export function parsePrivateKey(pem: string): KeyObject | null {
  try {
    return createPrivateKey(pem);
  } catch {
    return null;
  }
}

/** The names and addresses a subjectAltName text (`DNS:a, IP Address:1.2.3.4`) lists. */
function alternativeNames(text: string | undefined): { dnsNames: string[]; ipAddresses: string[] } {
  const dnsNames: string[] = [];
  const ipAddresses: string[] = [];
  for (const entry of (text ?? "").split(", ")) {
    if (entry.startsWith("DNS:")) dnsNames.push(entry.slice(4).toLowerCase());
    else if (entry.startsWith("IP Address:")) ipAddresses.push(entry.slice("IP Address:".length));
  }
  return { dnsNames, ipAddresses };
}

export function factsOf(certificate: X509Certificate): CertificateFacts {
  return {
    subject: certificate.subject.split("\n").join(", "),
    issuer: certificate.issuer.split("\n").join(", "),
    ...alternativeNames(certificate.subjectAltName),
    notBefore: new Date(certificate.validFrom),
    notAfter: new Date(certificate.validTo),
    fingerprint: certificate.fingerprint256,
    isAuthority: certificate.ca,
  };
}

/** Whole days until `notAfter`, rounded down; negative once it has ended. */
export const daysLeft = (facts: Pick<CertificateFacts, "notAfter">, now: Date) => Math.floor((facts.notAfter.getTime() - now.getTime()) / day);

/** Whether the certificate names this host: an address among its IP addresses, a name among its DNS names. */
export function covers(facts: Pick<CertificateFacts, "dnsNames" | "ipAddresses">, host: string): boolean {
  if (isIP(host) !== 0) return facts.ipAddresses.some((address) => sameAddress(address, host));
  return facts.dnsNames.includes(host.toLowerCase());
}

/** An IPv6 address in its short form (`::1`), as people read it; IPv4 as it is. */
export function shortAddress(address: string): string {
  if (isIP(address) !== 6) return address;
  return new URL(`http://[${address}]/`).hostname.slice(1, -1);
}

/** A PEM certificate as the DER bytes a phone installs (`/ca.crt`). */
export const derOf = (certificate: X509Certificate) => new Uint8Array(certificate.raw);
