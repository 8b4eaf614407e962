// Builds the web interface (src/web) into dist/web, with its service worker, and writes
// src/http/web-assets.generated.ts, which imports every built file so that `bun build
// --compile` embeds them in the executable. Every asset name carries a hash of its content (so it can be cached for a
// year), and a gzip and a brotli copy are made here, once, instead of on every request.
// Run by `npm start`, `npm test`, `npm run build` and `npm run dev`.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { brotliCompressSync, constants, deflateSync, gzipSync } from "node:zlib";

const root = join(import.meta.dir, "..");
const source = join(root, "src", "web");
const out = join(root, "dist", "web");
const development = process.argv.includes("--development");

// The previous build's files stay until the new ones and their list exist, so that a
// server restarted by `npm run dev` in between never misses a file its list names.
mkdirSync(out, { recursive: true });

const result = await Bun.build({
  entrypoints: [join(source, "main.tsx")],
  outdir: out,
  target: "browser",
  minify: !development,
  sourcemap: development ? "inline" : "none",
  // The admin console is a chunk of its own, loaded when an admin opens it: students and
  // lecturers never download it.
  splitting: true,
  naming: { entry: "[name]-[hash].[ext]", chunk: "[name]-[hash].[ext]", asset: "[name]-[hash].[ext]" },
  define: { "process.env.NODE_ENV": JSON.stringify(development ? "development" : "production") },
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}

const built = result.outputs.map((output) => basename(output.path));
const script = result.outputs.filter((output) => output.kind === "entry-point").map((output) => basename(output.path)).find((name) => name.endsWith(".js"));
// The entry's own stylesheet holds every style (main.tsx imports the console's too); a chunk may get
// a copy of a stylesheet it shares with the entry, which nothing loads.
const stylesheet = built.find((name) => name.endsWith(".css") && name.startsWith(`${basename(script ?? "", ".js").replace(/-[^-]*$/, "")}-`));
if (!script || !stylesheet) throw new Error(`the web build made no script or no stylesheet: ${built.join(", ")}`);

// The icon: a rounded green square with a white check mark, drawn into PNGs here so that
// a phone can put the service on its home screen without any outside file.
function icon(size: number): Uint8Array {
  const pixels = new Uint8Array(size * size * 4);
  const radius = size * 0.22;
  const inside = (x: number, y: number) => {
    const cx = Math.min(Math.max(x, radius), size - radius);
    const cy = Math.min(Math.max(y, radius), size - radius);
    return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2;
  };
  // The check: two strokes, from (0.28, 0.52) to (0.44, 0.68) to (0.74, 0.36) of the size.
  const stroke = size * 0.075;
  const nearSegment = (x: number, y: number, ax: number, ay: number, bx: number, by: number) => {
    const [dx, dy] = [bx - ax, by - ay];
    const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)));
    return Math.hypot(x - (ax + t * dx), y - (ay + t * dy)) <= stroke;
  };
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const at = (y * size + x) * 4;
      if (!inside(x + 0.5, y + 0.5)) continue;
      const [px, py] = [(x + 0.5) / size, (y + 0.5) / size];
      const check = nearSegment(px * size, py * size, 0.28 * size, 0.52 * size, 0.44 * size, 0.68 * size) || nearSegment(px * size, py * size, 0.44 * size, 0.68 * size, 0.74 * size, 0.36 * size);
      pixels.set(check ? [255, 255, 255, 255] : [0x1b, 0x6e, 0x53, 255], at);
    }
  }
  return png(size, pixels);
}

function png(size: number, rgba: Uint8Array): Uint8Array {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Uint8Array) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Uint8Array) => {
    const body = new Uint8Array(4 + data.length);
    body.set(new TextEncoder().encode(type), 0);
    body.set(data, 4);
    const framed = new Uint8Array(12 + data.length);
    const view = new DataView(framed.buffer);
    view.setUint32(0, data.length);
    framed.set(body, 4);
    view.setUint32(8 + data.length, crc(body));
    return framed;
  };
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, size);
  view.setUint32(4, size);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits per channel, RGBA
  const scanlines = new Uint8Array(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) scanlines.set(rgba.subarray(y * size * 4, (y + 1) * size * 4), y * (size * 4 + 1) + 1);
  const parts = [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", header), chunk("IDAT", deflateSync(scanlines)), chunk("IEND", new Uint8Array())];
  return new Uint8Array(Buffer.concat(parts));
}

const contentHash = (bytes: Uint8Array | string) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex").slice(0, 10);

const icons = [192, 512].map((size) => {
  const bytes = icon(size);
  const name = `icon-${size}-${contentHash(bytes)}.png`;
  writeFileSync(join(out, name), bytes);
  return { name, size };
});
const manifest = JSON.stringify({
  name: "skrining — Skrining Stres dan Motivasi Mahasiswa",
  short_name: "skrining",
  lang: "id",
  start_url: "/",
  scope: "/",
  display: "standalone",
  background_color: "#f6f8f7",
  theme_color: "#1b6e53",
  icons: icons.map(({ name, size }) => ({ src: `/assets/${name}`, sizes: `${size}x${size}`, type: "image/png", purpose: "any maskable" })),
});
const manifestName = `manifest-${contentHash(manifest)}.webmanifest`;
writeFileSync(join(out, manifestName), manifest);

const html = readFileSync(join(source, "index.html"), "utf8")
  .replaceAll("%SCRIPT%", `/assets/${script}`)
  .replaceAll("%STYLESHEET%", `/assets/${stylesheet}`)
  .replaceAll("%MANIFEST%", `/assets/${manifestName}`)
  .replaceAll("%ICON%", `/assets/${icons[0]!.name}`);
writeFileSync(join(out, "index.html"), html);

// Everything but the page itself is an asset named by its content. The page is compressed
// by the server, once it has put the faculty's time zone in (src/http/web.ts).
const assets = [...built, ...icons.map((each) => each.name), manifestName];

// The service worker, at a name that never changes (/sw.js, so that its scope is every page).
// Its cache is named by the hashes of this build's files: a new build is a new worker with a
// new cache, and the browser replaces the old worker when it sees the changed file.
const serviceWorker = "sw.js";
const worker = await Bun.build({
  entrypoints: [join(source, "worker", "service-worker.ts")],
  outdir: out,
  target: "browser",
  minify: !development,
  naming: { entry: serviceWorker },
  define: {
    SKRINING_CACHE: JSON.stringify(`skrining-${contentHash([...assets].sort().join("\n") + html)}`),
    SKRINING_PRECACHE: JSON.stringify(["/", ...assets.map((name) => `/assets/${name}`)]),
  },
});
if (!worker.success) {
  for (const log of worker.logs) console.error(log);
  process.exit(1);
}

const compressible = (name: string) => /\.(js|css|webmanifest)$/.test(name);
for (const name of [...assets, serviceWorker].filter(compressible)) {
  const bytes = readFileSync(join(out, name));
  writeFileSync(join(out, `${name}.gz`), gzipSync(bytes, { level: 9 }));
  writeFileSync(join(out, `${name}.br`), brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
}

const files = [...assets, serviceWorker, "index.html"].flatMap((name) => (compressible(name) ? [name, `${name}.gz`, `${name}.br`] : [name]));
const generated = join(root, "src", "http", "web-assets.generated.ts");
const importPath = (name: string) => relative(join(generated, ".."), join(out, name)).split("\\").join("/");
const lines = [
  "// Generated by scripts/build-web.ts; not committed. Every built file of the web interface,",
  "// imported as a file so that `bun build --compile` embeds it in the executable. Each import",
  "// is a path (a string); TypeScript cannot know these files, so it does not check this one.",
  "// @ts-nocheck",
  ...files.map((name, index) => `import file${index} from ${JSON.stringify(`./${importPath(name)}`)} with { type: "file" };`),
  "",
  "/** The page, served for every page path once `%TIMEZONE%` is filled in. */",
  `export const pageFile: string = file${files.indexOf("index.html")};`,
  "",
  "/** The service worker (served as /sw.js) with its compressed copies. */",
  `export const serviceWorkerFile: { path: string; gzip: string; brotli: string } = { path: file${files.indexOf(serviceWorker)}, gzip: file${files.indexOf(serviceWorker) + 1}, brotli: file${files.indexOf(serviceWorker) + 2} };`,
  "",
  "/** Assets by name (served under /assets/), each with its compressed copies when it has them. */",
  "export const assetFiles: Record<string, { path: string; gzip?: string; brotli?: string }> = {",
  ...assets.map((name) => {
    const index = files.indexOf(name);
    return compressible(name)
      ? `  ${JSON.stringify(name)}: { path: file${index}, gzip: file${index + 1}, brotli: file${index + 2} },`
      : `  ${JSON.stringify(name)}: { path: file${index} },`;
  }),
  "};",
  "",
];
writeFileSync(generated, lines.join("\n"));
for (const name of readdirSync(out)) if (!files.includes(name)) rmSync(join(out, name), { force: true });

const sizes = (name: string) => ({ raw: Bun.file(join(out, name)).size, brotli: Bun.file(join(out, `${name}.br`)).size, gzip: Bun.file(join(out, `${name}.gz`)).size });
const [js, css] = [sizes(script), sizes(stylesheet)];
console.error(`web: ${script} ${js.raw} B (gzip ${js.gzip}, br ${js.brotli}), ${stylesheet} ${css.raw} B (gzip ${css.gzip}, br ${css.brotli})`);
for (const chunk of built.filter((name) => name.endsWith(".js") && name !== script)) {
  const size = sizes(chunk);
  console.error(`web: chunk ${chunk} ${size.raw} B (gzip ${size.gzip}, br ${size.brotli}), loaded when needed`);
}
