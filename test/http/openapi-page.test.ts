import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { renderOpenApiPage } from "../../src/http/openapi/render";
import { TestService } from "../helpers";

// The documentation page loads nothing from another origin: no script at all, only a
// stylesheet of the service's own, and a policy that tells the browser the same.

let service: TestService;
let page: { status: number; headers: Headers; body: any };
let html: string;
let document: any;

beforeAll(async () => {
  service = new TestService();
  page = await service.request("GET", "/openapi");
  html = typeof page.body === "string" ? page.body : JSON.stringify(page.body);
  document = (await service.request("GET", "/openapi/json")).body;
});
afterAll(() => service.close());

const methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** The text of `value` as it appears in the page (HTML-escaped). */
const escaped = (value: string) => value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** Every URL the markup's tags refer to (src, href, action, ...), and any style url() or @import. */
function references(markup: string): string[] {
  const found: string[] = [];
  for (const [tag] of markup.matchAll(/<[^>]+>/g)) {
    for (const match of tag.matchAll(/\s(?:src|href|action|srcset|poster|data|formaction|ping|manifest|background)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi)) {
      found.push(match[1]!.replace(/^["']|["']$/g, ""));
    }
  }
  for (const match of markup.matchAll(/url\(\s*("[^"]*"|'[^']*'|[^)]*)\)|@import\s+("[^"]*"|'[^']*')/gi)) {
    found.push((match[1] ?? match[2] ?? "").replace(/^["']|["']$/g, ""));
  }
  return found;
}

/** The names of the elements in the markup. */
const elements = (markup: string) => new Set([...markup.matchAll(/<([a-z][a-z0-9]*)/gi)].map((match) => match[1]!.toLowerCase()));
const allowedElements = ["html", "head", "meta", "title", "link", "body", "a", "header", "h1", "h2", "h3", "h4", "p", "dl", "dt", "dd", "section", "nav", "ul", "li", "span", "code", "main", "article", "table", "thead", "tbody", "tr", "th", "td", "pre"];

/** A same-origin reference: a fragment, or a path from the root that is not `//host`. */
const sameOrigin = (url: string) => url.startsWith("#") || (url.startsWith("/") && !url.startsWith("//") && !url.startsWith("/\\"));

describe("GET /openapi", () => {
  test("answers an HTML page with a policy that allows only the service's own origin", () => {
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("content-security-policy")).toBe(
      "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
  });

  test("has no script and refers to nothing on another origin", () => {
    expect(html).not.toMatch(/<script/i);
    expect([...elements(html)].filter((name) => !allowedElements.includes(name))).toEqual([]);
    for (const [tag] of html.matchAll(/<[^>]+>/g)) expect(tag).not.toMatch(/\s(on[a-z]+|style)\s*=/i); // no inline handlers or styles
    expect(html).not.toMatch(/https?:\/\//i);
    const urls = references(html);
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect({ url, sameOrigin: sameOrigin(url) }).toEqual({ url, sameOrigin: true });
  });

  test("declares its language and uses headings and table headers", () => {
    expect(html).toMatch(/^<!DOCTYPE html>/i);
    expect(html).toMatch(/<html[^>]*\slang="en"/);
    expect(html).toMatch(/<h1[\s>]/);
    expect(html).toMatch(/<th scope="col">/);
    expect(html).toMatch(/<meta charset="utf-8">/i);
  });

  test("lists every operation of /openapi/json with its summary", () => {
    const paths = Object.entries(document.paths as Record<string, Record<string, any>>);
    expect(paths.length).toBeGreaterThan(10);
    for (const [path, item] of paths) {
      for (const method of methods.filter((name) => item[name])) {
        const heading = `<span class="method method-${method}">${method.toUpperCase()}</span> <code class="path">${escaped(path)}</code>`;
        expect({ path, method, listed: html.includes(heading) }).toEqual({ path, method, listed: true });
        if (item[method].summary) expect(html).toContain(escaped(item[method].summary));
      }
    }
  });

  test("has a heading per tag and says which operations need a bearer token", () => {
    const tags = new Set<string>();
    for (const item of Object.values(document.paths as Record<string, Record<string, any>>)) {
      for (const method of methods) for (const tag of item[method]?.tags ?? []) tags.add(tag);
    }
    expect(tags.size).toBeGreaterThan(0);
    for (const tag of tags) expect(html).toMatch(new RegExp(`<h2 id="[^"]+">${escaped(tag)}</h2>`));

    const article = (method: string, path: string) => {
      const start = html.indexOf(`<span class="method method-${method}">${method.toUpperCase()}</span> <code class="path">${path}</code>`);
      return html.slice(start, html.indexOf("</article>", start));
    };
    expect(article("get", "/api/auth/me")).toContain("<dt>Bearer token</dt><dd>required (bearer)</dd>");
    expect(article("post", "/api/auth/login")).toContain("<dt>Bearer token</dt><dd>not needed</dd>");
  });

  test("shows parameters, request bodies and each response status with its schema", () => {
    const start = html.indexOf('<code class="path">/api/mahasiswa/hasil/{nim}</code>');
    const hasil = html.slice(start, html.indexOf("</article>", start));
    expect(hasil).toContain('<th scope="row"><code>nim</code></th><td>path</td><td>yes</td>');
    expect(hasil).toMatch(/<th scope="row">200<\/th>/);
    expect(hasil).toMatch(/<th scope="row">404<\/th>/);
    expect(hasil).toContain('<pre class="schema">');

    const foto = html.slice(html.indexOf('<span class="method method-put">PUT</span> <code class="path">/api/mahasiswa/profil/foto</code>'));
    expect(foto.slice(0, foto.indexOf("</article>"))).toMatch(/<h4>Request body<\/h4>[\s\S]*multipart\/form-data[\s\S]*foto: string \(binary\)/);
  });

  test("shows each body's fields, required or not, each answer's fields, and why each error happens", () => {
    const article = (method: string, path: string) => {
      const start = html.indexOf(`<span class="method method-${method}">${method.toUpperCase()}</span> <code class="path">${path}</code>`);
      return html.slice(start, html.indexOf("</article>", start));
    };
    const mood = article("post", "/api/mahasiswa/mood");
    const [body, responses] = mood.split("<h4>Responses</h4>") as [string, string];
    expect(body).toContain("<p>Required.</p>");
    expect(body).toContain("date: string (date)");
    expect(body).toContain("mood_value: integer (1..5)");
    expect(body).toContain("nim?: string");
    expect(responses).toMatch(/<th scope="row">201<\/th><td>a new entry for the date<\/td>[\s\S]*?mood_value: integer \(1\.\.5\)/);
    expect(responses).toMatch(/<th scope="row">429<\/th><td>a student&#39;s writes exceed the fair-use limit/);
    expect(responses).toContain("error: string");

    const login = article("post", "/api/auth/login");
    for (const field of ["username: string", "password: string", "access_token: string", "refresh_token: string", "is_activated: boolean"]) expect(login).toContain(field);
    // A description is said once: in its column, not again above the schema.
    expect(login).not.toContain("// unknown username or wrong password");
    expect(article("get", "/health")).toContain("version: string");
  });

  test("is built once: a second request answers the same page", async () => {
    const again = await service.request("GET", "/openapi");
    expect(again.body).toBe(page.body);
  });
});

describe("the page's stylesheet", () => {
  test("is served as CSS from the same origin and loads nothing itself", async () => {
    const link = html.match(/<link rel="stylesheet" href="([^"]+)">/);
    expect(link).not.toBeNull();
    const response = await service.request("GET", link![1]!);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.body).not.toMatch(/url\(|@import|@font-face/i);
  });
});

describe("GET /openapi/json", () => {
  test("still answers the OpenAPI document, without the documentation routes", () => {
    expect(document.openapi).toMatch(/^3\./);
    expect(document.info.title).toBe("skrining");
    expect(document.paths["/api/auth/login"].post).toBeDefined();
    expect(Object.keys(document.paths).filter((path) => path.startsWith("/openapi"))).toEqual([]);
  });
});

describe("the page's text", () => {
  test("is escaped wherever it comes from in the document", () => {
    const hostile = `<script src="https://cdn.example/x.js"></script><img src=//example.org onerror=alert(1)>"'&`;
    const rendered = renderOpenApiPage(
      {
        info: { title: hostile, description: hostile, version: hostile },
        tags: [{ name: hostile, description: hostile }],
        paths: {
          [`/x/${hostile}`]: {
            get: {
              tags: [hostile],
              summary: hostile,
              description: hostile,
              parameters: [{ name: hostile, in: "query", description: hostile, schema: { type: "string", enum: [hostile] } }],
              requestBody: { description: hostile, content: { [hostile]: { schema: { type: "object", properties: { [hostile]: { type: "string", description: hostile } } } } } },
              responses: { [hostile]: { description: hostile, content: { "application/json": { schema: { $ref: `#/components/schemas/${hostile}` } } } } },
            },
          },
        },
        components: { schemas: { [hostile]: { type: "string", description: hostile } }, securitySchemes: { [hostile]: { type: "http", scheme: "bearer", description: hostile } } },
      },
      { specPath: "/openapi/json", stylesheetPath: "/openapi/style.css" },
    );
    expect([...elements(rendered)].filter((name) => !allowedElements.includes(name))).toEqual([]);
    expect(references(rendered).filter((url) => !sameOrigin(url))).toEqual([]);
    expect(rendered).toContain("&#60;script src=&#34;https://cdn.example/x.js&#34;&#62;");
  });
});
