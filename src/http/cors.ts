import { cors } from "@elysiajs/cors";

const privateHost =
  /^(localhost|127(\.\d{1,3}){3}|10(\.\d{1,3}){3}|192\.168(\.\d{1,3}){2}|172\.(1[6-9]|2\d|3[01])(\.\d{1,3}){2}|169\.254(\.\d{1,3}){2}|\[::1\]|\[f[cd][0-9a-f:]*\]|\[fe80:[0-9a-f:]*\]|[a-z0-9-]+(\.local)?)$/i;

/** True for an origin on the campus network: a private address or a plain or `.local` host name. */
function isLanOrigin(origin: string): boolean {
  // Most requests (the app, curl) carry no Origin; answer them without building an exception.
  if (origin === "") return false;
  try {
    return privateHost.test(new URL(origin).hostname);
  } catch {
    return false;
  }
}

/** CORS for the web front end: any LAN origin by default, or the configured list. */
export const corsPolicy = (origins: string[] | "lan") =>
  cors({
    origin: origins === "lan" ? (request) => isLanOrigin(request.headers.get("origin") ?? "") : origins,
    methods: ["GET", "POST", "PUT", "DELETE", "OPTIONS"],
    allowedHeaders: ["Authorization", "Content-Type", "If-None-Match"],
    exposeHeaders: ["Retry-After", "ETag"],
    maxAge: 600,
  });
