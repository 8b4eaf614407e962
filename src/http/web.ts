import { readFileSync } from "node:fs";
import { brotliCompressSync, gzipSync } from "node:zlib";
import type { AdminWeb } from "../config";
import { matchPage, pageRoutes } from "../web/routes";
import { adminWebRefusal } from "./admin-web";

// The web interface, served by the executable itself from the files embedded at build
// time (scripts/build-web.ts): the page for every page path, its assets under /assets/,
// its service worker at /sw.js.

/** What scripts/build-web.ts writes to web-assets.generated.ts: the page and the assets by name, as embedded files. */
export interface WebAssets {
  pageFile: string;
  assetFiles: Record<string, { path: string; gzip?: string; brotli?: string }>;
  serviceWorkerFile: { path: string; gzip?: string; brotli?: string };
}

/**
 * The built web interface, or null when it has not been built: `bun cli/main.ts` run from
 * a fresh clone, before any `npm start`, `npm test` or build. Every command works then, and
 * `serve` answers the API; its pages say what to run. The executable always has it: its
 * build fails without the module.
 */
export async function builtWebAssets(): Promise<WebAssets | null> {
  try {
    return await import("./web-assets.generated");
  } catch (error) {
    if (/Cannot find module/.test((error as Error).message ?? "")) return null;
    throw error;
  }
}

/** What a page path answers while the web interface has not been built. */
export const notBuiltPage = `<!doctype html>
<html lang="id"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>skrining: antarmuka web belum dibangun</title></head>
<body><main><h1>Antarmuka web belum dibangun</h1>
<p>Server ini berjalan dari kode sumber tanpa antarmuka web. API tetap berjalan.</p>
<p>Jalankan <code>npm run build:web</code> (atau <code>npm start</code>) di folder proyek, lalu mulai ulang server.</p></main></body></html>
`;

/**
 * The page may load only what this origin serves: no inline script, no other origin's
 * script, style, font or image, no framing (decisions §9). Photos previewed before upload
 * are `blob:` URLs of the page itself.
 */
export const pageHeaders = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-cache",
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob:; connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
} as const;

/** An asset's name carries a hash of its content: it never changes, so it is kept a year. */
const assetCacheControl = "public, max-age=31536000, immutable";

const mediaTypes: Record<string, string> = {
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  png: "image/png",
  webmanifest: "application/manifest+json",
};

/** The path of a request URL, without building a URL object for every API call. */
function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start === -1) return "/";
  const query = url.indexOf("?", start);
  return query === -1 ? url.slice(start) : url.slice(start, query);
}

/** A file in up to three encodings: an embedded file's path, or the bytes themselves. */
type Body = string | Uint8Array;
interface Encodings {
  plain: Body;
  gzip?: Body;
  brotli?: Body;
}

/**
 * The service worker (src/web/worker/service-worker.ts) at the root, so that its scope is
 * every page. Its name never changes, so it is checked on every visit: a new build's worker
 * replaces the old one. It may fetch only this origin.
 */
const serviceWorkerPath = "/sw.js";
const serviceWorkerHeaders = {
  "content-type": "text/javascript; charset=utf-8",
  "cache-control": "no-cache",
  "content-security-policy": "default-src 'none'; connect-src 'self'",
  "x-content-type-options": "nosniff",
} as const;

/**
 * Whether an Accept-Encoding header takes `encoding`: named (or `*`) with a weight above 0,
 * so that `br;q=0` refuses brotli.
 */
export function acceptsEncoding(header: string, encoding: string): boolean {
  let wildcard = false;
  for (const part of header.toLowerCase().split(",")) {
    const [name, ...parameters] = part.split(";").map((piece) => piece.trim());
    const weight = parameters.find((parameter) => parameter.startsWith("q="));
    const accepted = weight === undefined || Number(weight.slice(2)) > 0;
    if (name === encoding) return accepted;
    if (name === "*") wildcard = accepted;
  }
  return wildcard;
}

/** The smallest copy the client accepts: brotli, gzip, or the file as it is. */
function encoded(request: Request, file: Encodings): { body: Body; encoding?: string } {
  const accepted = request.headers.get("accept-encoding") ?? "";
  if (accepted && acceptsEncoding(accepted, "br") && file.brotli) return { body: file.brotli, encoding: "br" };
  if (accepted && acceptsEncoding(accepted, "gzip") && file.gzip) return { body: file.gzip, encoding: "gzip" };
  return { body: file.plain };
}

function respond(request: Request, file: Encodings, headers: Record<string, string>, status = 200): Response {
  const chosen = encoded(request, file);
  const all: Record<string, string> = { ...headers, vary: "accept-encoding" };
  if (chosen.encoding) all["content-encoding"] = chosen.encoding;
  const body = typeof chosen.body === "string" ? Bun.file(chosen.body) : chosen.body;
  return new Response(request.method === "HEAD" ? null : body, { status, headers: all });
}

/**
 * The page with the faculty's time zone in its `skrining-timezone` meta tag (the pages
 * show every time in it): a few kilobytes, each compressed copy made once, when a
 * browser first asks for it (not while the server starts: the zone is only known then).
 */
function pageIn(timeZone: string, pageFile: string | null): Encodings {
  const escaped = timeZone.replace(/[&"<>]/g, (character) => `&#${character.charCodeAt(0)};`);
  const plain = new TextEncoder().encode(pageFile === null ? notBuiltPage : readFileSync(pageFile, "utf8").replaceAll("%TIMEZONE%", escaped));
  let gzip: Uint8Array | undefined;
  let brotli: Uint8Array | undefined;
  return {
    plain,
    get gzip() {
      return (gzip ??= gzipSync(plain, { level: 9 }));
    },
    get brotli() {
      return (brotli ??= brotliCompressSync(plain));
    },
  };
}

const assetEncodings = (file: WebAssets["assetFiles"][string]): Encodings => ({ plain: file.path, gzip: file.gzip, brotli: file.brotli });

/** The page that says why the console did not open (`--admin-web`), as plain as the policy allows: no script, no style. */
function consoleClosed(request: Request, message: string): Response {
  const escaped = message.replace(/[&"<>]/g, (character) => `&#${character.charCodeAt(0)};`);
  const body = `<!doctype html>\n<html lang="id"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Konsol admin tidak dapat dibuka · skrining</title></head><body><main><h1>Konsol admin tidak dapat dibuka</h1><p>${escaped}</p><p><a href="/">Ke halaman utama</a></p></main></body></html>\n`;
  return new Response(request.method === "HEAD" ? null : body, { status: 403, headers: { ...pageHeaders, "cache-control": "no-store" } });
}

/** Who may open the admin console's pages (`serve --admin-web`); absent: anyone (tests of the pages alone). */
export interface ConsoleAccess {
  adminWeb: AdminWeb;
  clientAddress: (request: Request) => string;
  consoleAddress: () => string;
}

/**
 * The web interface for a faculty in `timeZone`, from `assets` (builtWebAssets): the
 * answer to a request, or null when the request is not for it (the API, the OpenAPI page,
 * anything else): those go on to the API app unchanged. Without assets every page answers
 * 503 with notBuiltPage. The console's pages answer 403 to a client `--admin-web` keeps
 * out, as its routes do.
 */
export function webInterface(timeZone: string, assets: WebAssets | null, consoleAccess?: ConsoleAccess): (request: Request) => Response | null {
  const page = pageIn(timeZone, assets?.pageFile ?? null);
  const assetFiles = assets?.assetFiles ?? {};
  const pageStatus = assets ? 200 : 503;
  return (request) => {
    if (request.method !== "GET" && request.method !== "HEAD") return null;
    const path = pathOf(request.url);
    if (path.startsWith("/api/")) return null;
    if (path.startsWith("/assets/")) {
      const name = path.slice("/assets/".length);
      const file = Object.hasOwn(assetFiles, name) ? assetFiles[name]! : undefined;
      if (!file) return new Response("Berkas tidak ditemukan.", { status: 404, headers: { "content-type": "text/plain; charset=utf-8", "x-content-type-options": "nosniff" } });
      const extension = name.slice(name.lastIndexOf(".") + 1);
      return respond(request, assetEncodings(file), { "content-type": mediaTypes[extension] ?? "application/octet-stream", "cache-control": assetCacheControl, "x-content-type-options": "nosniff" });
    }
    if (path === serviceWorkerPath && assets) return respond(request, assetEncodings(assets.serviceWorkerFile), serviceWorkerHeaders);
    const match = matchPage(path);
    if (!match) return null;
    if (consoleAccess && pageRoutes[match.name].role === "admin") {
      const refusal = adminWebRefusal(consoleAccess.adminWeb, consoleAccess.clientAddress(request), consoleAccess.consoleAddress());
      if (refusal !== null) return consoleClosed(request, refusal);
    }
    return respond(request, page, pageHeaders, pageStatus);
  };
}
