import { BlockList, isIP } from "node:net";
import { hostname, networkInterfaces } from "node:os";
import { InvalidInput } from "./errors";

// The campus PC as the network knows it: its own host names and its addresses. The start-up
// lines print them, the host check lets browsers use them (decisions §15) and the local
// certificate covers them (decisions §18).

/** The PC's own names: its host name, and that name on the local network (mDNS, `.local`). */
export function ownHostNames(): string[] {
  const own = hostname().trim().toLowerCase();
  return own === "" ? [] : [own, `${own}.local`];
}

/**
 * The PC's addresses a phone on the LAN can use: every address but the loopback ones and
 * IPv6 link-local ones (fe80::/10, which a URL can only name with the interface's zone).
 * `family` narrows them to what a listener on 0.0.0.0 (IPv4) answers.
 */
export function lanAddresses(family: "IPv4" | "any" = "any"): string[] {
  const found = new Set<string>();
  for (const entry of Object.values(networkInterfaces()).flat()) {
    if (!entry || entry.internal) continue;
    if (family === "IPv4" && entry.family !== "IPv4") continue;
    if (entry.family === "IPv6" && /^fe[89ab]/i.test(entry.address)) continue;
    found.add(entry.address);
  }
  return [...found];
}

/**
 * Whether an address is the PC itself: 127.0.0.0/8, ::1, and IPv4 loopback written as an
 * IPv6 address (what a dual-stack socket reports).
 */
export function isLoopback(address: string): boolean {
  const plain = address.startsWith("::ffff:") ? address.slice("::ffff:".length) : address;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(plain) || address === "::1" || address === "0:0:0:0:0:0:0:1";
}

/** Whether a host is one of the wildcard addresses that listen on every interface. */
export const isWildcardHost = (host: string) => host === "0.0.0.0" || host === "::" || host === "";

/**
 * The addresses a listener on `host` answers on besides loopback: every LAN address of the
 * PC for `::`, its IPv4 ones for `0.0.0.0`, the address itself otherwise.
 */
export function listenedAddresses(host: string): string[] {
  if (!isWildcardHost(host)) return [host];
  return lanAddresses(host === "::" ? "any" : "IPv4");
}

/** Whether two textual IP addresses are the same address (`::1` and `0:0:0:0:0:0:0:1` are). */
export function sameAddress(one: string, other: string): boolean {
  const family = isIP(one);
  if (family === 0 || family !== isIP(other)) return false;
  const list = new BlockList();
  list.addAddress(one, family === 4 ? "ipv4" : "ipv6");
  return list.check(other, family === 4 ? "ipv4" : "ipv6");
}

/** An address as it stands in a URL: IPv6 in brackets. */
export const urlHost = (address: string) => (isIP(address) === 6 ? `[${address}]` : address);

const namePattern = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** The names given with --hostname or SKRINING_HOSTNAMES (comma-separated), lower case; a malformed one is refused at start. */
export function readHostNames(given: readonly string[]): string[] {
  return given.flatMap((entry) => entry.split(",")).map((name) => name.trim().toLowerCase().replace(/\.$/, "")).filter((name) => name !== "").map((name) => {
    if (!namePattern.test(name)) throw new InvalidInput(`--hostname ${name}: bukan nama host (huruf, angka, tanda - dan titik), misalnya skrining.fakultas.ac.id.`);
    return name;
  });
}
