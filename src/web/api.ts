// The service's API as the web interface calls it. The access token lives in memory only;
// the refresh token is kept in the tab's storage (or, when asked, the browser's) so that a
// reload does not sign the student out. A 401 is answered by one refresh and one retry; every other error keeps
// the server's Indonesian text.
import { noteAnswer } from "./connection";
import { errors } from "./strings";

/** An answer other than 2xx, or no answer at all (`status` 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Seconds until a retry may succeed (429, 503, 507). */
    readonly retryAfter: number | null = null,
    /** The whole error body (the weekly limit carries more keys). */
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }

  /** The server's text in the pages' words, with when to retry when the server said so. */
  get text(): string {
    const message = errors.serverWords[this.message] ?? this.message;
    return this.retryAfter !== null && !/Coba lagi dalam/.test(message) ? `${message} ${errors.retryIn(this.retryAfter)}` : message;
  }
}

const refreshKey = "skrining.refreshToken";
/** Set in localStorage while the person signed in asked to be remembered on this device. */
const rememberKey = "skrining.remember";
let accessToken: string | null = null;
const signedOutListeners = new Set<() => void>();

export function onSignedOut(listener: () => void): () => void {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
}

/**
 * Where this browser keeps what outlives a reload (the refresh token, unsent drafts):
 * the tab's own storage, forgotten when the tab closes, so that a shared lab PC keeps
 * nothing of the last student (decisions §15); the browser's lasting storage only when the
 * person ticked "Ingat saya di perangkat ini".
 */
export function keptStorage(): Storage {
  try {
    return localStorage.getItem(rememberKey) === "1" ? localStorage : sessionStorage;
  } catch {
    return sessionStorage;
  }
}

function storedRefreshToken(): string | null {
  try {
    return keptStorage().getItem(refreshKey);
  } catch {
    return null;
  }
}

/** A new session's tokens (`remember` says where the refresh token is kept), or a refreshed access token (`refresh` null). */
export function rememberTokens(access: string, refresh: string | null, remember = false): void {
  accessToken = access;
  if (!refresh) return;
  try {
    if (remember) localStorage.setItem(rememberKey, "1");
    else localStorage.removeItem(rememberKey);
    // Only in the one place: a token left in the other would outlive what the person chose.
    (remember ? sessionStorage : localStorage).removeItem(refreshKey);
    keptStorage().setItem(refreshKey, refresh);
  } catch {
    // Without storage the session simply ends with the page.
  }
}

export function forgetTokens(): void {
  accessToken = null;
  for (const storage of [localStorage, sessionStorage]) {
    try {
      storage.removeItem(refreshKey);
      storage.removeItem(rememberKey);
    } catch {
      // Nothing stored.
    }
  }
}

export const hasStoredSession = () => storedRefreshToken() !== null;

/**
 * The account of the stored session, read from its refresh token (a JWT: its `sub`) without
 * checking it: only to find this person's drafts while the server cannot be asked.
 */
export function storedSessionUserId(): number | null {
  try {
    const payload = JSON.parse(atob(storedRefreshToken()!.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/"))) as { sub?: unknown };
    const id = Number(payload.sub);
    return Number.isInteger(id) && id > 0 ? id : null;
  } catch {
    return null;
  }
}

interface RequestOptions {
  /** A JSON body. */
  json?: unknown;
  /** A multipart body (the photo). */
  form?: FormData;
  /** Whether the request carries the access token; login and activation do not. */
  authenticated?: boolean;
  /** The route answers a wrong password in its body with 401 (a password change): that ends no session. */
  checksPassword?: boolean;
  /** The answer is a file (a photo), not JSON. */
  file?: boolean;
  /** Further headers (the admin console's confirmation). */
  headers?: Record<string, string>;
}

async function send(method: string, path: string, options: RequestOptions, token: string | null): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  if (token) headers.authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (options.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(options.json);
  } else if (options.form) {
    body = options.form;
  }
  try {
    const response = await fetch(path, { method, headers, body, cache: "no-store" });
    noteAnswer(true);
    return response;
  } catch {
    noteAnswer(false);
    throw new ApiError(0, errors.offline);
  }
}

async function errorOf(response: Response): Promise<ApiError> {
  let body: Record<string, unknown> = {};
  try {
    body = (await response.json()) as Record<string, unknown>;
  } catch {
    // Not JSON: the generic text below.
  }
  const retry = Number(response.headers.get("retry-after"));
  const message = typeof body.error === "string" && body.error ? body.error : errors.unexpected;
  return new ApiError(response.status, message, Number.isFinite(retry) && retry > 0 ? retry : null, body);
}

let refreshing: Promise<boolean> | null = null;

/** A new access token from the stored refresh token; false when the session is over. */
export function refreshAccessToken(): Promise<boolean> {
  refreshing ??= (async () => {
    const refresh = storedRefreshToken();
    if (!refresh) return false;
    const response = await send("POST", "/api/auth/refresh", {}, refresh);
    if (!response.ok) {
      // A refused refresh token ends the session; a server that cannot answer does not.
      if (response.status === 401) forgetTokens();
      else throw await errorOf(response);
      return false;
    }
    accessToken = ((await response.json()) as { access_token: string }).access_token;
    return true;
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const authenticated = options.authenticated ?? true;
  if (authenticated && !accessToken) await refreshAccessToken();
  let response = await send(method, path, options, authenticated ? accessToken : null);
  if (response.status === 401 && authenticated && !options.checksPassword) {
    if (await refreshAccessToken()) {
      response = await send(method, path, options, accessToken);
    }
    if (response.status === 401) {
      forgetTokens();
      for (const listener of signedOutListeners) listener();
      throw new ApiError(401, errors.sessionEnded);
    }
  }
  if (!response.ok) throw await errorOf(response);
  if (response.status === 204) return undefined as T;
  return (options.file ? await response.blob() : await response.json()) as T;
}

export const api = {
  get: <T>(path: string) => request<T>("GET", path),
  post: <T>(path: string, json?: unknown) => request<T>("POST", path, { json: json ?? {} }),
  put: <T>(path: string, json?: unknown) => request<T>("PUT", path, { json: json ?? {} }),
  delete: <T>(path: string) => request<T>("DELETE", path),
  upload: <T>(path: string, form: FormData) => request<T>("PUT", path, { form }),
  file: (path: string) => request<Blob>("GET", path, { file: true }),
};

/**
 * A file the server hands out (an export, a backup, a CSV), fetched with the token and
 * saved under the name the server gives it: a link cannot carry the token.
 */
export async function saveDownload(path: string): Promise<string> {
  const response = await sendAuthenticated(path);
  const name = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? "unduhan";
  const url = URL.createObjectURL(await response.blob());
  try {
    const link = document.createElement("a");
    link.href = url;
    link.download = name;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The click has handed the file to the browser; the address is not needed any more.
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
  return name;
}

/** A GET with the access token, refreshed once on 401 like every other request; the Response itself. */
async function sendAuthenticated(path: string): Promise<Response> {
  if (!accessToken) await refreshAccessToken();
  let response = await send("GET", path, {}, accessToken);
  if (response.status === 401 && (await refreshAccessToken())) response = await send("GET", path, {}, accessToken);
  if (response.status === 401) {
    forgetTokens();
    for (const listener of signedOutListeners) listener();
    throw new ApiError(401, errors.sessionEnded);
  }
  if (!response.ok) throw await errorOf(response);
  return response;
}
