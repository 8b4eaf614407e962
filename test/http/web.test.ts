import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { gunzipSync, brotliDecompressSync } from "node:zlib";
import { webInterface } from "../../src/http/web";
import { assetFiles, pageFile, serviceWorkerFile } from "../../src/http/web-assets.generated";
import { pageRoutes, pathOf } from "../../src/web/routes";

// The web interface as the server serves it: the page for every page path (never cached,
// with its Content Security Policy), assets by content-hashed name (cached a year,
// compressed at build time), the service worker, and nothing else: the API keeps its own
// paths and 404s.

const webAnswer = webInterface("Asia/Jakarta", { assetFiles, pageFile, serviceWorkerFile });
const get = (path: string, headers: Record<string, string> = {}, method = "GET") => webAnswer(new Request(`http://192.168.1.20:5000${path}`, { method, headers }));

// The entry script; the admin console's script is a chunk of its own (scripts/build-web.ts), loaded only when an admin opens it.
const script = Object.keys(assetFiles).find((name) => name.startsWith("main-") && name.endsWith(".js"))!;
const stylesheet = Object.keys(assetFiles).find((name) => name.startsWith("main-") && name.endsWith(".css"))!;

describe("the page", () => {
  const paths = Object.keys(pageRoutes).map((name) => pathOf(name as keyof typeof pageRoutes, { nim: "N001", id: "12" }));
  test.each([...paths, "/masuk/", "/dosen/mahasiswa/N%20001"])("%s answers the page, never cached, framing refused", async (path) => {
    const response = get(path)!;
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-cache");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    const policy = response.headers.get("content-security-policy")!;
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain("unsafe-inline");
    const html = await response.text();
    expect(html).toContain('<html lang="id">');
    expect(html).toContain(`src="/assets/${script}"`);
    expect(html).toContain(`href="/assets/${stylesheet}"`);
  });

  test("the page loads nothing from another origin and has no inline script", async () => {
    const html = await get("/")!.text();
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    for (const [, attributes, body] of html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)) {
      expect(attributes).toContain('src="/assets/');
      expect(body!.trim()).toBe("");
    }
  });

  test("the page names one script: the admin console's chunk is not part of every account's first load", async () => {
    const html = await get("/")!.text();
    const scripts = [...html.matchAll(/<script[^>]*src="\/assets\/([^"]+)"/g)].map((match) => match[1]);
    expect(scripts).toEqual([script]);
    const chunks = Object.keys(assetFiles).filter((name) => name.endsWith(".js") && name !== script);
    expect(chunks).toHaveLength(1);
    expect(readFileSync(assetFiles[chunks[0]!]!.path, "utf8")).toContain("/api/admin/akun");
    expect(readFileSync(assetFiles[script]!.path, "utf8")).not.toContain("/api/admin/akun");
  });

  test("brotli or gzip when the browser accepts them, the page as it is otherwise", async () => {
    const plain = await get("/")!.text();
    const brotli = get("/", { "accept-encoding": "gzip, deflate, br" })!;
    expect(brotli.headers.get("content-encoding")).toBe("br");
    expect(brotliDecompressSync(Buffer.from(await brotli.arrayBuffer())).toString()).toBe(plain);
    const gzip = get("/", { "accept-encoding": "gzip" })!;
    expect(gzip.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(Buffer.from(await gzip.arrayBuffer())).toString()).toBe(plain);
    expect(get("/")!.headers.get("vary")).toBe("accept-encoding");
  });

  test("the page names the faculty's time zone for the pages' dates (decisions §11), escaped", async () => {
    expect(await get("/")!.text()).toContain('<meta name="skrining-timezone" content="Asia/Jakarta" />');
    const makassar = await webInterface("Asia/Makassar", { assetFiles, pageFile, serviceWorkerFile })(new Request("http://x/"))!.text();
    expect(makassar).toContain('<meta name="skrining-timezone" content="Asia/Makassar" />');
    expect(await webInterface('x"><script>', { assetFiles, pageFile, serviceWorkerFile })(new Request("http://x/"))!.text()).toContain('content="x&#34;&#62;&#60;script&#62;"');
  });

  test("HEAD answers the headers alone", async () => {
    const response = get("/masuk", {}, "HEAD")!;
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("");
  });
});

describe("assets", () => {
  test("a script by its hashed name: a year immutable, its own type, compressed as accepted", async () => {
    const response = get(`/assets/${script}`, { "accept-encoding": "br" })!;
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("content-encoding")).toBe("br");
    expect(brotliDecompressSync(Buffer.from(await response.arrayBuffer())).length).toBe((await get(`/assets/${script}`)!.arrayBuffer()).byteLength);
  });

  test("the stylesheet, the manifest and the icons", () => {
    expect(get(`/assets/${stylesheet}`)!.headers.get("content-type")).toBe("text/css; charset=utf-8");
    const manifest = Object.keys(assetFiles).find((name) => name.endsWith(".webmanifest"))!;
    expect(get(`/assets/${manifest}`)!.headers.get("content-type")).toBe("application/manifest+json");
    for (const icon of Object.keys(assetFiles).filter((name) => name.endsWith(".png"))) expect(get(`/assets/${icon}`)!.headers.get("content-type")).toBe("image/png");
  });

  // A `..` is resolved by the URL itself (`/assets/../x` is `/x`); its encoded form names no asset.
  test.each(["/assets/main-0000000000.js", "/assets/", "/assets/%2e%2e%2fskrining.db", "/assets/constructor"])("%s is no asset: 404", (path) => {
    expect(get(path)!.status).toBe(404);
  });

  // The budget for a student's first load: the script and the stylesheet the page names, as sent.
  test("the first load is at most 80 KB of compressed JavaScript and CSS", async () => {
    const sent = async (name: string, encoding: string) => (await get(`/assets/${name}`, { "accept-encoding": encoding })!.arrayBuffer()).byteLength;
    for (const encoding of ["gzip", "br"]) expect((await sent(script, encoding)) + (await sent(stylesheet, encoding))).toBeLessThanOrEqual(80 * 1024);
  });

  test("the manifest names the icons, in Indonesian, for a phone's home screen", async () => {
    const name = Object.keys(assetFiles).find((each) => each.endsWith(".webmanifest"))!;
    const manifest = (await get(`/assets/${name}`)!.json()) as { lang: string; start_url: string; display: string; icons: { src: string }[] };
    expect(manifest).toMatchObject({ lang: "id", start_url: "/", display: "standalone" });
    for (const icon of manifest.icons) expect(get(icon.src)!.status).toBe(200);
  });
});

describe("compression (made at build time for the assets, at the first request for the page)", () => {
  const compressed = Object.keys(assetFiles).filter((name) => assetFiles[name]!.gzip);

  test("every compressed asset and the service worker decode to the very bytes of the file, in both encodings", async () => {
    expect(compressed.length).toBeGreaterThanOrEqual(3);
    for (const path of [...compressed.map((name) => `/assets/${name}`), "/sw.js"]) {
      const plain = Buffer.from(await get(path)!.arrayBuffer());
      const brotli = get(path, { "accept-encoding": "br" })!;
      const gzip = get(path, { "accept-encoding": "gzip" })!;
      expect([brotli.headers.get("content-encoding"), gzip.headers.get("content-encoding")]).toEqual(["br", "gzip"]);
      expect(brotliDecompressSync(Buffer.from(await brotli.arrayBuffer())).equals(plain)).toBe(true);
      expect(gunzipSync(Buffer.from(await gzip.arrayBuffer())).equals(plain)).toBe(true);
    }
  });

  test("a client without Accept-Encoding gets the file as it is, without Content-Encoding; every answer varies by Accept-Encoding", async () => {
    for (const path of ["/", `/assets/${script}`, `/assets/${stylesheet}`, "/sw.js"]) {
      const response = get(path)!;
      expect(response.headers.get("content-encoding")).toBeNull();
      expect(response.headers.get("vary")).toBe("accept-encoding");
      expect(get(path, { "accept-encoding": "br" })!.headers.get("vary")).toBe("accept-encoding");
    }
    expect(Buffer.from(await get(`/assets/${script}`)!.arrayBuffer()).equals(readFileSync(assetFiles[script]!.path))).toBe(true);
  });

  test.each([
    ["br;q=0, gzip", "gzip"],
    ["gzip;q=0, br;q=0", null],
    ["identity", null],
    ["*", "br"],
    ["*, br;q=0", "gzip"],
    ["GZIP;q=0.5", "gzip"],
    ["deflate", null],
  ])("Accept-Encoding %p: %p", (header, encoding) => {
    for (const path of ["/", `/assets/${script}`]) expect(get(path, { "accept-encoding": header })!.headers.get("content-encoding")).toBe(encoding);
  });

  test("every page path gets the same compressed page", async () => {
    const first = Buffer.from(await get("/", { "accept-encoding": "br" })!.arrayBuffer());
    const second = Buffer.from(await get("/masuk", { "accept-encoding": "br" })!.arrayBuffer());
    expect(second.equals(first)).toBe(true);
  });
});

describe("the service worker", () => {
  test("/sw.js: at the root, checked on every visit, allowed to fetch only this origin, compressed as accepted", async () => {
    const response = get("/sw.js", { "accept-encoding": "gzip" })!;
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-cache");
    expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; connect-src 'self'");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(Buffer.from(await response.arrayBuffer())).toString()).toBe(await get("/sw.js")!.text());
  });

  test("it keeps the page and every asset of this build in a cache named by their hashes, and nothing of the API", async () => {
    const worker = await get("/sw.js")!.text();
    const cacheNames = [...new Set(worker.match(/skrining-[0-9a-f]{10}/g))];
    expect(cacheNames).toHaveLength(1);
    const precached = JSON.parse(worker.match(/\["\/",[^\]]*\]/)![0]) as string[];
    expect(precached.sort()).toEqual(["/", ...Object.keys(assetFiles).map((name) => `/assets/${name}`)].sort());
    expect(worker).toContain('"/api/"');
  });
});

describe("everything else goes on to the API", () => {
  test.each([
    ["GET", "/api/auth/me"],
    ["GET", "/api/nope"],
    ["GET", "/openapi"],
    ["GET", "/tidak-ada"],
    ["GET", "/dosen/mahasiswa/"],
    ["POST", "/masuk"],
    ["DELETE", "/"],
  ])("%s %s", (method, path) => {
    expect(get(path, {}, method)).toBeNull();
  });
});
