import { X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { connect } from "node:tls";
import { runCli } from "../helpers";

// What the tests of serve with TLS share: a data folder's tls/ made by the command, and
// the certificate a server serves, read off a real TLS handshake that trusts only that CA.

export function tlsFiles(dataDir: string) {
  const folder = join(dataDir, "tls");
  return { folder, ca: join(folder, "ca.crt"), caKey: join(folder, "ca.key"), certificate: join(folder, "server.crt"), key: join(folder, "server.key") };
}

/** `skrining tls init` on a data folder; throws when it fails. */
export async function tlsInit(dataDir: string, args: string[] = []): Promise<void> {
  const result = await runCli(["--data", dataDir, "tls", "init", ...args]);
  if (result.exitCode !== 0) throw new Error(`tls init: ${result.stderr}`);
}

/** The certificate served at host:port, with the handshake trusting `ca` alone (it fails on any other certificate). */
export async function servedCertificate(host: string, port: number, ca: string): Promise<X509Certificate> {
  return await new Promise((resolve, reject) => {
    const socket = connect({ host, port, ca, servername: host.includes(":") || /^\d/.test(host) ? undefined : host }, () => {
      const peer = socket.getPeerX509Certificate();
      socket.end();
      if (peer) resolve(peer);
      else reject(new Error("no certificate"));
    });
    socket.on("error", reject);
  });
}

/** fetch over HTTPS trusting only the data folder's CA. */
export function httpsFetch(dataDir: string) {
  const ca = readFileSync(tlsFiles(dataDir).ca, "utf8");
  return (url: string, init: RequestInit = {}) => fetch(url, { ...init, tls: { ca } } as RequestInit);
}

/** Waits until `condition` holds (polled), failing after `seconds`. */
export async function eventually<T>(what: string, probe: () => Promise<T | null | undefined | false>, seconds = 20): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await probe().catch(() => null);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`waited ${seconds} s for ${what}`);
    await Bun.sleep(100);
  }
}
