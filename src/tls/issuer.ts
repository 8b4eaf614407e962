// The local certificate authority's two acts: making itself, and signing a server
// certificate (decisions §18), with @peculiar/x509 on WebCrypto. Loaded only where a
// certificate is made (`tls init`, a renewal), never by a server that only reads one, and
// only through loadIssuer() (src/tls/local.ts), which loads the Reflect polyfill the
// library needs before it.
import * as x509 from "@peculiar/x509";

/** ECDSA P-256 with SHA-256: what every phone and browser since 2015 verifies, and quick to make (Caddy's choice too). */
const algorithm = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;

/** A certificate and its private key, both PEM (the key PKCS #8). */
export interface KeyPair {
  certificate: string;
  key: string;
}

const hour = 3600 * 1000;
const day = 24 * hour;

/** A random positive serial of 16 bytes (RFC 5280 allows 20; browsers want them unpredictable). */
function serialNumber(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0]! & 0x7f) | 0x01;
  return Buffer.from(bytes).toString("hex");
}

const pemKey = async (key: CryptoKey) => x509.PemConverter.encode(await crypto.subtle.exportKey("pkcs8", key), "PRIVATE KEY");

/**
 * Backdated an hour: a phone whose clock runs a little behind the PC's still accepts a
 * certificate made a moment ago.
 */
const validFrom = (now: Date) => new Date(now.getTime() - hour);

/** `/ \ , + " < > ; =` would need escaping in a distinguished name; a host name never has them, but a CN is kept plain anyway. */
const plainName = (text: string) => text.replace(/[,+"\\<>;=/]/g, " ").trim();

/**
 * A new certificate authority, valid `days` (10 years by default): a self-signed CA
 * certificate that may sign server certificates only (path length 0), named after the PC
 * and the day it was made so that a phone's list of trusted certificates tells it apart.
 */
export async function createAuthority(pcName: string, now: Date, days = 3650): Promise<KeyPair> {
  const keys = await crypto.subtle.generateKey(algorithm, true, ["sign", "verify"]);
  const notBefore = validFrom(now);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: `CN=${plainName(`skrining CA lokal ${pcName} ${now.toISOString().slice(0, 10)}`)}, O=skrining`,
    notBefore,
    notAfter: new Date(notBefore.getTime() + days * day),
    signingAlgorithm: algorithm,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certificate: certificate.toString("pem"), key: await pemKey(keys.privateKey) };
}

/** What a server certificate names: DNS names and IP addresses (subjectAltName). */
export interface Coverage {
  dnsNames: string[];
  ipAddresses: string[];
}

/**
 * A server certificate signed by `authority`, valid `days` from an hour ago (never past the
 * authority's own end), for TLS servers only, naming exactly `coverage`. Browsers read
 * only the subjectAltName; the subject's CN repeats the first name for people.
 */
export async function issueServerCertificate(authority: KeyPair, coverage: Coverage, now: Date, days: number): Promise<KeyPair> {
  const issuer = new x509.X509Certificate(authority.certificate);
  const signingKey = await crypto.subtle.importKey("pkcs8", x509.PemConverter.decodeFirst(authority.key), algorithm, false, ["sign"]);
  const keys = await crypto.subtle.generateKey(algorithm, true, ["sign", "verify"]);
  const notBefore = validFrom(now);
  const notAfter = new Date(Math.min(notBefore.getTime() + days * day, issuer.notAfter.getTime()));
  const names = [...coverage.dnsNames.map((value) => ({ type: "dns" as const, value })), ...coverage.ipAddresses.map((value) => ({ type: "ip" as const, value }))];
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject: `CN=${plainName(coverage.dnsNames[0] ?? coverage.ipAddresses[0] ?? "skrining")}, O=skrining`,
    issuer: issuer.subject,
    notBefore,
    notAfter,
    signingAlgorithm: algorithm,
    publicKey: keys.publicKey,
    signingKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(names),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(issuer.publicKey),
    ],
  });
  return { certificate: certificate.toString("pem"), key: await pemKey(keys.privateKey) };
}
