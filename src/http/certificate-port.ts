import { urlHost } from "../machine";
import type { ServedTls } from "../tls/served";
import { authorityFileName } from "../tls/install-steps";
import { certificatePage, certificateStylesheet, certificateStylesheetPath } from "./certificate-page";
import { hostOf } from "./host-names";
import { pageHeaders } from "./web";

// The plain port once skrining serves HTTPS (decisions §18, `--port`, 5000 by default): it
// has one job, getting a phone to the HTTPS port with the certificate it needs. Every page
// path answers the certificate page, /ca.crt the local CA, /health as usual; every /api/
// route answers 403 naming the HTTPS address, so that no password crosses it, unless
// `serve --http-api allow` keeps the API here for an old app.

/** `serve --http-api`: whether the plain port answers the API too (an old app) or refuses it (the default). */
export const httpApiModes = ["refuse", "allow"] as const;
export type HttpApi = (typeof httpApiModes)[number];

export interface CertificatePortSettings {
  tls: ServedTls;
  /** This port and the HTTPS one, as they are once open. */
  ports: () => { port: number; httpsPort: number };
  httpApi: HttpApi;
  /** The service's own answer: /health, and the API under `--http-api allow`. */
  service: (request: Request) => Response | Promise<Response>;
}

/** §18's refusal of the API on the plain port: where to go instead, and where to learn how. */
export const useHttpsMessage = (host: string, httpsPort: number, port: number) => `Gunakan https://${host}:${httpsPort}/ (lihat http://${host}:${port}/).`;

const plainHeaders = { "x-content-type-options": "nosniff", "cache-control": "no-store" } as const;

const json = (status: number, body: object, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { ...plainHeaders, ...headers, "content-type": "application/json;charset=utf-8" } });

/** The path of a request, without a query. */
const pathOf = (request: Request) => new URL(request.url).pathname;

/** The plain port's answer to every request. */
export function certificatePort(settings: CertificatePortSettings): (request: Request) => Response | Promise<Response> {
  const { tls } = settings;
  return (request) => {
    const path = pathOf(request);
    // The name or address the visitor used, so that the HTTPS address given back is one it can reach.
    const host = urlHost(hostOf(request.headers.get("host") ?? new URL(request.url).host));
    const { port, httpsPort } = settings.ports();
    if (path.startsWith("/api/")) {
      if (settings.httpApi === "allow") return settings.service(request);
      return json(403, { error: useHttpsMessage(host, httpsPort, port) });
    }
    if (path === "/health") return settings.service(request);
    if (request.method !== "GET" && request.method !== "HEAD") return json(405, { error: "Metode tidak diizinkan." }, { allow: "GET, HEAD" });
    const body = (content: string | Uint8Array) => (request.method === "HEAD" ? null : content);
    if (path === "/ca.crt" || path === "/ca.pem") {
      const authority = tls.authorityCertificate();
      if (!authority) return json(404, { error: "Server ini tidak memakai CA lokal skrining: tidak ada sertifikat CA untuk dipasang." });
      const pem = path === "/ca.pem";
      return new Response(body(pem ? authorityPem(authority) : authority), {
        headers: {
          ...plainHeaders,
          "content-type": pem ? "application/x-pem-file" : "application/x-x509-ca-cert",
          "content-disposition": `attachment; filename="${pem ? authorityFileName.replace(/\.crt$/, ".pem") : authorityFileName}"`,
        },
      });
    }
    if (path === certificateStylesheetPath) return new Response(body(certificateStylesheet), { headers: { ...plainHeaders, "content-type": "text/css; charset=utf-8", "cache-control": "no-cache" } });
    const page = certificatePage({
      httpsAddress: `https://${host}:${httpsPort}/`,
      plainAddress: `http://${host}:${port}`,
      fingerprint: tls.fingerprint,
      hasAuthority: tls.authorityCertificate() !== null,
    });
    return new Response(body(page), { headers: { ...pageHeaders, "cache-control": "no-store" } });
  };
}

/** DER as PEM: what `update-ca-certificates` and most command-line tools read. */
function authorityPem(der: Uint8Array): string {
  const lines = Buffer.from(der).toString("base64").match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join("\n")}\n-----END CERTIFICATE-----\n`;
}
