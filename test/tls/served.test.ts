import { expect, test } from "bun:test";
import { X509Certificate } from "node:crypto";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { temporaryDir } from "../helpers";
import { ServedTls, tlsSourceOf, type ServedPair } from "../../src/tls/served";
import { tlsFiles, tlsInit } from "./support";

// The served certificate between checks (src/tls/served.ts): files on disk that cannot be
// taken up are said once and the pair in use is kept; still broken at the next check, the
// local CA replaces them.

function recorder() {
  const lines: string[] = [];
  return { lines, logger: { info: (line: string) => lines.push(line), error: (line: string) => lines.push(`error: ${line}`) } };
}

test("a pair on disk that does not match is said once and not served; still so at the next check, it is replaced from the CA", async () => {
  const dataDir = temporaryDir();
  await tlsInit(dataDir);
  const { lines, logger } = recorder();
  const served = await ServedTls.open(tlsSourceOf(dataDir, {})!, { host: "127.0.0.1", givenNames: [], logger });
  const renewed: ServedPair[] = [];
  served.start(3600, async (pair) => void renewed.push(pair));
  const inUse = served.pair.certificate;

  writeFileSync(tlsFiles(dataDir).key, readFileSync(tlsFiles(dataDir).caKey));
  await served.check();
  expect(served.pair.certificate).toBe(inUse);
  expect(renewed).toEqual([]);
  expect(lines.filter((line) => line.startsWith("error: ") && line.includes("bukan pasangan sertifikat"))).toHaveLength(1);

  await served.check();
  expect(renewed).toHaveLength(1);
  expect(served.pair.certificate).not.toBe(inUse);
  expect(readFileSync(tlsFiles(dataDir).certificate, "utf8")).toBe(served.pair.certificate);
  expect(lines.at(-1)).toStartWith("Sertifikat TLS diperbarui dari CA lokal (berkas di tls/ rusak atau tidak cocok)");
  await served.stop();
});

test("a certificate given with --tls-cert is never renewed by skrining", async () => {
  const elsewhere = temporaryDir();
  await tlsInit(elsewhere, ["--days", "5"]);
  const files = tlsFiles(elsewhere);
  const { logger } = recorder();
  const served = await ServedTls.open(tlsSourceOf(temporaryDir(), { tlsCert: files.certificate, tlsKey: files.key })!, { host: "127.0.0.1", givenNames: [], logger });
  expect(served.renewable).toBe(false);
  expect(served.warnings()).toEqual([expect.stringMatching(/^Sertifikat TLS berakhir dalam [45] hari/)]);
  await expect(served.renewNow("uji")).rejects.toThrow("--tls-cert/--tls-key");
  expect(readFileSync(files.certificate, "utf8")).toBe(served.pair.certificate);
});

test("a new CA made while serve runs (tls/ moved aside, tls init again) is the one offered and named from the next check", async () => {
  const dataDir = temporaryDir();
  await tlsInit(dataDir);
  const { logger } = recorder();
  const served = await ServedTls.open(tlsSourceOf(dataDir, {})!, { host: "127.0.0.1", givenNames: [], logger });
  served.start(3600, async () => undefined);
  const before = served.fingerprint;
  renameSync(tlsFiles(dataDir).folder, `${tlsFiles(dataDir).folder}.lama`);
  await tlsInit(dataDir);
  await served.check();
  const authority = new X509Certificate(readFileSync(tlsFiles(dataDir).ca));
  expect(served.fingerprint).toBe(authority.fingerprint256);
  expect(served.fingerprint).not.toBe(before);
  expect(new X509Certificate(served.authorityCertificate()!).fingerprint256).toBe(authority.fingerprint256);
  await served.stop();
});
