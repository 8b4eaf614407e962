import { matchPage } from "../web/routes";
import { assetFiles, pageFile } from "./web-assets.generated";

// The web interface, served by the executable itself from the files embedded at build
// time (scripts/build-web.ts): the page for every page path, its assets under /assets/.

/**
 * The page may load only what this origin serves: no inline script, no other origin's
 * script, style, font or image, no framing (decisions §9). Photos previewed before upload
 * are `blob:` URLs of the page itself.
 */
const pageHeaders = {
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

/** The smallest copy the client accepts: brotli, gzip, or the file as it is. */
function encoded(request: Request, file: { path: string; gzip?: string; brotli?: string }): { path: string; encoding?: string } {
  const accepted = request.headers.get("accept-encoding") ?? "";
  if (file.brotli && /\bbr\b/.test(accepted)) return { path: file.brotli, encoding: "br" };
  if (file.gzip && /\bgzip\b/.test(accepted)) return { path: file.gzip, encoding: "gzip" };
  return { path: file.path };
}

function respond(request: Request, file: { path: string; gzip?: string; brotli?: string }, headers: Record<string, string>): Response {
  const chosen = encoded(request, file);
  const all: Record<string, string> = { ...headers, vary: "accept-encoding" };
  if (chosen.encoding) all["content-encoding"] = chosen.encoding;
  return new Response(request.method === "HEAD" ? null : Bun.file(chosen.path), { headers: all });
}

/**
 * The answer of the web interface to a request, or null when the request is not for it
 * (the API, the OpenAPI page, anything else): those go on to the API app unchanged.
 */
export function webAnswer(request: Request): Response | null {
  if (request.method !== "GET" && request.method !== "HEAD") return null;
  const path = pathOf(request.url);
  if (path.startsWith("/api/")) return null;
  if (path.startsWith("/assets/")) {
    const name = path.slice("/assets/".length);
    const file = Object.hasOwn(assetFiles, name) ? assetFiles[name]! : undefined;
    if (!file) return new Response("Berkas tidak ditemukan.", { status: 404, headers: { "content-type": "text/plain; charset=utf-8", "x-content-type-options": "nosniff" } });
    const extension = name.slice(name.lastIndexOf(".") + 1);
    return respond(request, file, { "content-type": mediaTypes[extension] ?? "application/octet-stream", "cache-control": assetCacheControl, "x-content-type-options": "nosniff" });
  }
  return matchPage(path) ? respond(request, pageFile, pageHeaders) : null;
}
