// The browser tests' harness: the compiled executable (dist/skrining) on a real port in a
// fresh data folder with the demo accounts, Debian's Chromium driven by playwright-core,
// axe-core on every page, and screenshots at a phone's and a desktop's size.
import { expect } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Locator, type Page, type Request } from "playwright-core";

export const repositoryRoot = join(import.meta.dir, "..");
const executable = join(repositoryRoot, "dist", "skrining");
const screenshots = join(import.meta.dir, "screenshots");
export const adminPassword = "admin-browser-1";

/** The demo accounts (examples/demo-accounts.csv): who signs in as what. */
export const demo = {
  student: { username: "2301001", password: "demo-mhs-01", nim: "2301001", nama: "Andi Pratama" },
  otherStudent: { username: "2301002", password: "demo-mhs-02", nim: "2301002", nama: "Siti Aminah" },
  notActivated: { username: "2301004", password: "demo-mhs-04", nim: "2301004", nama: "Dewi Lestari" },
  lecturer: { username: "dosen.rina", password: "demo-dosen-1", nip: "198001012005012001", nama: "Dr. Rina Kartika" },
  otherLecturer: { username: "dosen.budi", password: "demo-dosen-2", nip: "197805152003121002", nama: "Budi Santoso M.Kom." },
  admin: { username: "admin", password: adminPassword },
} as const;

export const viewports = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
} as const;
export type ViewportName = keyof typeof viewports;

/** Every size a page is checked at: the two above and the narrowest phone the faculty supports. */
export const sizes = { ...viewports, narrow: { width: 360, height: 740 } } as const;
export type SizeName = keyof typeof sizes;

export interface Served {
  base: string;
  dataDir: string;
  /** Runs a command of the same executable on the same data folder. */
  command(args: string[], stdin?: string): Promise<{ exitCode: number; stdout: string; stderr: string }>;
  /** Stops the server (SIGTERM) and keeps its folder: `resume` starts it again on the same ports. */
  halt(): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<void>;
}

/** Where serveExecutable listens: the host (127.0.0.1 unless a test's own namespace gives another) and whether it serves HTTPS (`tls init` first). */
export interface ServeWhere {
  host?: string;
  tls?: boolean;
}

/** A server with TLS: `base` is its HTTPS address, `plainBase` the certificate page's, `authority` the CA (PEM) a browser must trust. */
export interface ServedTls extends Served {
  plainBase: string;
  authority: string;
}

async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** An address as it stands in a URL: IPv6 in brackets. */
const inUrl = (host: string) => (host.includes(":") ? `[${host}]` : host);

/**
 * The executable alone in an empty folder, as a faculty runs it, with the demo accounts
 * imported; `serveOptions` go to serve. With `where.tls` the data folder gets its CA and
 * certificate from `tls init` first, and the server serves HTTPS (ServedTls).
 */
export async function serveExecutable(environment: Record<string, string> = {}, serveOptions: (folder: string) => string[] = () => [], where: ServeWhere = {}): Promise<Served> {
  if (!existsSync(executable)) throw new Error("dist/skrining is missing: run `npm run build` first (npm run test:browser does).");
  const folder = mkdtempSync(join(tmpdir(), "skrining-browser-"));
  const dataDir = join(folder, "data");
  const env = { PATH: process.env.PATH ?? "", HOME: folder, SKRINING_ADMIN_PASSWORD: adminPassword, SKRINING_BCRYPT_COST: "4", SKRINING_LOG: "off", ...environment };
  const command = async (args: string[], stdin?: string) => {
    const child = Bun.spawn([executable, "--data", dataDir, ...args], { cwd: folder, env, stdin: stdin === undefined ? "ignore" : new Blob([stdin]), stdout: "pipe", stderr: "pipe" });
    const [stdout, stderr, exitCode] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    return { exitCode, stdout, stderr };
  };
  const imported = await command(["accounts", "import", join(repositoryRoot, "examples", "demo-accounts.csv")]);
  if (imported.exitCode !== 0) throw new Error(`demo accounts: ${imported.stderr}`);
  if (where.tls) {
    const made = await command(["tls", "init"]);
    if (made.exitCode !== 0) throw new Error(`tls init: ${made.stderr}`);
  }

  const host = where.host ?? "127.0.0.1";
  const port = await freePort();
  const httpsPort = await freePort();
  const plainBase = `http://${inUrl(host)}:${port}`;
  const base = where.tls ? `https://${inUrl(host)}:${httpsPort}` : plainBase;
  const args = [executable, "--data", dataDir, "serve", "--host", host, "--port", String(port), ...(where.tls ? ["--https-port", String(httpsPort)] : []), ...serveOptions(folder)];
  let server: ReturnType<typeof Bun.spawn>;
  const start = async () => {
    server = Bun.spawn(args, { cwd: folder, env, stdout: "pipe", stderr: "pipe" });
    // Asked on the plain port: with TLS it answers /health as usual.
    for (let attempt = 0; ; attempt++) {
      try {
        if ((await fetch(`${plainBase}/health`)).ok) break;
      } catch {
        // not listening yet
      }
      if (attempt > 100 || server.exitCode !== null) throw new Error(`the executable did not start: ${await new Response(server.stderr as ReadableStream).text()}`);
      await Bun.sleep(100);
    }
  };
  await start();
  const halt = async () => {
    server.kill("SIGTERM");
    await server.exited;
  };
  const served: Served = {
    base,
    dataDir,
    command,
    halt,
    resume: start,
    stop: async () => {
      await halt();
      rmSync(folder, { recursive: true, force: true });
    },
  };
  if (!where.tls) return served;
  const withTls: ServedTls = { ...served, plainBase, authority: readFileSync(join(dataDir, "tls", "ca.crt"), "utf8") };
  return withTls;
}

/** Debian's Chromium, headless, with nothing reaching out to the internet. */
export async function launchBrowser(options: { executablePath?: string; env?: Record<string, string> } = {}): Promise<Browser> {
  return await chromium.launch({
    executablePath: options.executablePath ?? chromiumPath,
    env: options.env,
    args: ["--headless", "--lang=id-ID", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"],
  });
}

export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * A page of a fresh context (no storage shared with other tests) at one of the sizes, in
 * Indonesian. The service worker is blocked unless a test asks for it (test-browser/offline.test.ts):
 * its requests run on after a test closes its context, which breaks the driver's connection,
 * and pages ask the network first with or without it.
 */
export async function openPage(browser: Browser, served: Served, viewport: SizeName, options: { serviceWorker?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({
    viewport: sizes[viewport],
    locale: "id-ID",
    timezoneId: "Asia/Jakarta",
    baseURL: served.base,
    serviceWorkers: options.serviceWorker ? "allow" : "block",
  });
  const pending = new Set<Request>();
  requestsInFlight.set(context, pending);
  context.on("request", (request) => pending.add(request));
  context.on("requestfinished", (request) => pending.delete(request));
  context.on("requestfailed", (request) => pending.delete(request));
  const page = await context.newPage();
  // A page that fails or loads anything from another origin is a test failure, reported by
  // checkPage and closePage: a listener that threw would throw inside the driver's dispatch.
  const problems: string[] = [];
  pageProblems.set(context, problems);
  page.on("pageerror", (error) => problems.push(`a page error: ${error.message}`));
  page.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith(served.base) && !url.startsWith("blob:") && !url.startsWith("data:")) problems.push(`a request to another origin: ${url}`);
  });
  return page;
}

/** The requests of each context opened by openPage that have not ended yet. */
const requestsInFlight = new WeakMap<BrowserContext, Set<Request>>();
/** What went wrong in each context's pages: an error thrown in a page, a request to another origin. */
const pageProblems = new WeakMap<BrowserContext, string[]>();

/** Fails the test with what went wrong in the page's context so far, if anything did. */
function expectNoPageProblems(page: Page): void {
  expect(pageProblems.get(page.context()) ?? []).toEqual([]);
}

/**
 * Closes a page's context once none of its requests is in flight (for a tenth of a second,
 * so that one a finished request started is waited for too): the answer to a request of a
 * closed context reaches the driver as an object it no longer knows, which breaks its
 * connection for every test after. (The same error from a test that closed nothing came
 * from handing a promise to expect: docs/testing.md.)
 */
export async function closePage(page: Page): Promise<void> {
  const context = page.context();
  const pending = requestsInFlight.get(context) ?? new Set();
  for (let quietSince = Date.now(), waited = 0; waited < 15_000; waited += 20) {
    if (pending.size > 0) quietSince = Date.now();
    else if (Date.now() - quietSince >= 100) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await context.close();
  expectNoPageProblems(page);
}

/**
 * Signs in on the sign-in form the page shows (any page shows it to a signed-out visitor), or
 * on /masuk. A student's first sign-in shows the privacy notice before any page: it is
 * accepted, as the student would (test-browser/privasi.test.ts tests that page itself).
 */
export async function signIn(page: Page, account: { username: string; password: string }): Promise<void> {
  const form = page.getByRole("heading", { level: 1, name: "Masuk" });
  if (!(await form.isVisible())) await page.goto("/masuk");
  await page.getByLabel("Username").fill(account.username);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Masuk", exact: true }).click();
  await form.waitFor({ state: "detached" });
  // The session shows its first page only once it knows whether the notice is pending.
  const notice = page.getByRole("heading", { level: 1, name: "Pemberitahuan privasi" });
  if (await notice.isVisible()) {
    await page.getByRole("button", { name: "Saya sudah membaca dan menyetujui" }).click();
    await notice.waitFor({ state: "detached" });
  }
}

/**
 * Where an element is on the page, once it is shown. A page that renders again between
 * the wait and the measurement (its data arriving) briefly has no box for it: the
 * measurement is then taken again, as Playwright's own assertions retry.
 */
export async function boxOf(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  for (let attempt = 0; ; attempt++) {
    await locator.waitFor();
    const box = await locator.boundingBox();
    if (box) return box;
    if (attempt === 20) throw new Error(`no box for ${locator}: it is not shown`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Opens the main menu on a phone, where it is folded away. */
export async function openMenu(page: Page): Promise<void> {
  const menu = page.getByRole("button", { name: "Menu", exact: true });
  if (await menu.isVisible()) await menu.click();
}

const axeSource = readFileSync(join(repositoryRoot, "node_modules", "axe-core", "axe.min.js"), "utf8");

/**
 * axe-core's WCAG 2.2 A and AA rules on the page as it is now: no violation may be left.
 * axe is evaluated through the DevTools protocol, which the page's Content Security Policy
 * does not govern, so the policy stays as strict in the test as in use.
 */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] } });
    return result.violations.map((violation) => `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`);
  });
  expect({ page: label, violations }).toEqual({ page: label, violations: [] });
}

/** Nothing wider than the screen: no sideways scrolling at 360–390 px. */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

/**
 * Every control that stands alone is at least 44 px high, a thumb's size (WCAG 2.5.5):
 * buttons, fields, summaries, and links that are not words inside running text (a link with
 * text beside it in its line). A radio button or a checkbox counts with its label row, and a
 * link stretched over its card (its `::after` absolutely placed) with the card.
 */
export async function expectTouchTargets(page: Page, label: string): Promise<void> {
  const small = await page.evaluate(() => {
    const inline = (element: Element) => getComputedStyle(element).display.startsWith("inline");
    /** A link among words: text beside it (or beside the inline element it sits in) in its line. */
    const inRunningText = (link: Element) => {
      let node: Element = link;
      while (node.parentElement && getComputedStyle(node.parentElement).display === "inline") node = node.parentElement;
      return [...(node.parentElement?.childNodes ?? [])].some(
        (other) => other !== node && (other.nodeType === Node.TEXT_NODE ? Boolean(other.textContent?.trim()) : other instanceof Element && inline(other) && Boolean(other.textContent?.trim())),
      );
    };
    const found: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>("a[href], button, input, select, textarea, summary")) {
      const style = getComputedStyle(element);
      if (element.getClientRects().length === 0 || style.visibility === "hidden" || style.opacity === "0") continue;
      if (element instanceof HTMLAnchorElement && inRunningText(element)) continue;
      let target: Element = element;
      if (element instanceof HTMLInputElement && (element.type === "radio" || element.type === "checkbox")) target = element.closest("label") ?? element;
      const after = getComputedStyle(element, "::after");
      if (after.content !== "none" && after.position === "absolute" && element.offsetParent) target = element.offsetParent;
      const height = target.getBoundingClientRect().height;
      if (height < 44 - 0.01) found.push(`${element.tagName.toLowerCase()}${element.className ? `.${String(element.className).split(" ").join(".")}` : ""} "${(element.textContent || element.getAttribute("aria-label") || element.getAttribute("name") || "").trim().slice(0, 40)}": ${height.toFixed(1)} px`);
    }
    return found;
  });
  expect({ page: label, small }).toEqual({ page: label, small: [] });
}

/**
 * A table wider than its box scrolls inside it: the box is a region the keyboard reaches
 * and a screen reader names, and a visible line above it says to scroll. Answers how many
 * tables of the page are wider than their box.
 */
export async function expectScrollableTablesSaySo(page: Page): Promise<number> {
  const tables = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>(".table-wrap")]
      .filter((box) => box.getClientRects().length > 0 && box.scrollWidth > box.clientWidth)
      .map((box) => {
        const hint = box.getAttribute("aria-describedby") ? document.getElementById(box.getAttribute("aria-describedby")!) : null;
        return { name: box.getAttribute("aria-label"), role: box.getAttribute("role"), tabIndex: box.tabIndex, hint: hint && hint.getClientRects().length > 0 ? hint.textContent : null };
      }),
  );
  for (const table of tables) expect(table).toEqual({ name: expect.any(String), role: "region", tabIndex: 0, hint: expect.stringContaining("geser ke samping") });
  return tables.length;
}

/**
 * A page with nothing left to load. The network's idle state counts from the last full
 * load: a page reached within the app (after signing in, from the menu) may still be
 * loading, and says so itself (`.loading`).
 */
export async function pageSettled(page: Page): Promise<void> {
  await page.waitForLoadState("networkidle");
  await page.waitForFunction(() => document.querySelector(".loading") === null);
}

/**
 * The checks every page gets: accessible, no sideways scrolling, and a screenshot
 * (`test-browser/screenshots/<name>-<viewport>.png`) for the docs.
 */
/**
 * No two elements share an id: a label's `for` and an `aria-describedby` would then name
 * the wrong element, and axe 4 no longer checks it. (The fields' ids come from Preact's
 * `useId`, which has given duplicates in some trees.)
 */
export async function expectUniqueIds(page: Page): Promise<void> {
  const repeated = await page.evaluate(() => {
    const seen = new Map<string, number>();
    for (const element of document.querySelectorAll("[id]")) seen.set(element.id, (seen.get(element.id) ?? 0) + 1);
    return [...seen].filter(([, count]) => count > 1).map(([id]) => id);
  });
  expect(repeated).toEqual([]);
}

export async function checkPage(page: Page, name: string, viewport: SizeName): Promise<void> {
  await pageSettled(page);
  expectNoPageProblems(page);
  await expectAccessible(page, `${name} (${viewport})`);
  await expectNoSidewaysScroll(page);
  await expectUniqueIds(page);
  mkdirSync(screenshots, { recursive: true });
  await page.screenshot({ path: join(screenshots, `${name}-${viewport}.png`), fullPage: true });
}

/**
 * Calls to the API of the served executable, for setting up what a test needs; `base` is
 * asked at each call because the server starts in the file's beforeAll.
 */
export function apiOf(base: () => string) {
  async function call<T>(method: string, path: string, token: string | null, body?: unknown): Promise<{ status: number; body: T }> {
    const response = await fetch(`${base()}${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as T };
  }
  async function tokenOf(account: { username: string; password: string }): Promise<string> {
    const { status, body } = await call<{ access_token: string }>("POST", "/api/auth/login", null, account);
    expect(status).toBe(200);
    return body.access_token;
  }
  return { call, tokenOf };
}

/** Answers with every stress item at `stress` (score 40·stress) and a low, middle or high motivation. */
export function answers(stress: number, motivation: "low" | "mid" | "high"): Record<string, number> {
  const jawaban: Record<string, number> = {};
  for (let item = 1; item <= 40; item++) jawaban[`S${item}`] = stress;
  // Intrinsic and identified items M1–M16 raise the SDI; introjected, external and amotivation M17–M28 lower it.
  const [raising, lowering] = { low: [1, 7], mid: [4, 4], high: [7, 1] }[motivation];
  for (let item = 1; item <= 28; item++) jawaban[`M${item}`] = item <= 16 ? raising! : lowering!;
  return jawaban;
}
