import { isIP } from "node:net";
import { ownHostNames } from "../machine";

/**
 * Decisions §15, DNS rebinding: a page of another site whose name an attacker points at the
 * campus PC would otherwise use the service through a visitor's browser (its photos by NIM,
 * its logins). A request from a browser — one that carries `Origin` or `Sec-Fetch-Site` —
 * must name the PC by an IP address, `localhost`, one of the PC's own host names, or a name
 * the faculty gave (`serve --hostname NAME`, `SKRINING_HOSTNAMES`); any other answers 421.
 * Other clients (the phone app, curl, a monitor) send neither header and are not affected.
 * Routing still depends on the path alone (decisions §9): this only refuses.
 */

/** The host of a Host header, without its port or the brackets of an IPv6 address, lower case. */
export function hostOf(header: string): string {
  const value = header.trim().toLowerCase();
  if (value.startsWith("[")) return value.slice(1, value.indexOf("]") === -1 ? undefined : value.indexOf("]"));
  return value.replace(/:\d*$/, "").replace(/\.$/, "");
}

/** The text a refused browser reads; it names the option that would let the name in. */
export const wrongHostText = (host: string) =>
  `Permintaan ditolak: skrining tidak dikenal dengan nama "${host}". Buka skrining lewat alamat IP PC kampus atau nama yang didaftarkan admin. ` +
  `Bila "${host}" memang nama skrining di jaringan fakultas, admin dapat menambahkannya: skrining serve --hostname ${host} (atau SKRINING_HOSTNAMES).\n`;

/**
 * The check of one server: null lets a request through, a Response refuses it. `covered`
 * gives the DNS names of the certificate served now (decisions §18): a name the faculty
 * put in it with `tls init --hostname` is the PC's too.
 */
export function hostCheck(given: readonly string[], covered: () => readonly string[] = () => []): (request: Request) => Response | null {
  const allowed = new Set(["localhost", ...ownHostNames(), ...given]);
  return (request) => {
    const { headers } = request;
    if (!headers.has("origin") && !headers.has("sec-fetch-site")) return null;
    const host = hostOf(headers.get("host") ?? new URL(request.url).host);
    if (isIP(host) !== 0 || allowed.has(host) || host.endsWith(".localhost") || covered().includes(host)) return null;
    return new Response(wrongHostText(host.slice(0, 253)), { status: 421, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff" } });
  };
}
