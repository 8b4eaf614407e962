/**
 * Routing depends on the path alone, never on the `Host` header (decisions §9). Elysia
 * finds the path in `request.url` by searching for "/" from index 11, which assumes a host
 * name long enough to reach that index: with `Host: x`, `http://x/zzz/api/auth/me` would
 * be routed as `/api/auth/me`. Such a request gets a URL with a standard host instead; the
 * request object itself is kept, so the server still knows its client address.
 */
export function routeByPath(request: Request): Request {
  const url = request.url;
  const hostStart = url.indexOf("//") + 2;
  const pathStart = url.indexOf("/", hostStart);
  if (pathStart === url.indexOf("/", 11)) return request;
  const path = pathStart === -1 ? "/" : url.slice(pathStart);
  Object.defineProperty(request, "url", { value: `${url.slice(0, hostStart)}localhost${path}` });
  return request;
}
