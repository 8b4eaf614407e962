// The page's HTML, rendered from the OpenAPI document: the contents, one article per
// operation (parameters, body, responses), the schemas.
import { methods, resolve, type MediaTypes, type OpenApiDocument, type Operation, type Parameter, type Reference, type Schema } from "./document";
import { renderSchema } from "./schema-text";

/** Escapes text for HTML content and for attribute values in double quotes. */
function escapeHtml(text: unknown): string {
  return String(text).replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

interface Entry {
  path: string;
  method: (typeof methods)[number];
  operation: Operation;
  id: string;
}

/** The whole page, from the document. Every text taken from the document is escaped. */
export function renderOpenApiPage(document: OpenApiDocument, links: { specPath: string; stylesheetPath: string }): string {
  const title = document.info?.title ?? "API";
  const ids = uniqueIds();

  // Tags in the document's order, then in the order operations first name them.
  const tagDescriptions = new Map((document.tags ?? []).map((tag) => [tag.name, tag.description]));
  const groups = new Map<string, Entry[]>([...tagDescriptions.keys()].map((name) => [name, []]));
  const untagged: Entry[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (!item) continue;
    for (const method of methods) {
      const operation = item[method] as Operation | undefined;
      if (!operation || typeof operation !== "object") continue;
      const pathParameters = Array.isArray(item.parameters) ? item.parameters : [];
      const merged: Operation = { ...operation, parameters: mergeParameters(document, pathParameters, operation.parameters ?? []) };
      const tags = operation.tags?.length ? operation.tags : undefined;
      if (!tags) untagged.push({ path, method, operation: merged, id: ids(`op-${method}-${path}`) });
      for (const tag of tags ?? []) {
        if (!groups.has(tag)) groups.set(tag, []);
        groups.get(tag)!.push({ path, method, operation: merged, id: ids(`op-${method}-${path}`) });
      }
    }
  }
  const sections = [...groups].filter(([, entries]) => entries.length > 0).map(([name, entries]) => ({ name, id: ids(`tag-${name}`), description: tagDescriptions.get(name), entries }));
  if (untagged.length > 0) sections.push({ name: "Other", id: ids("tag-other"), description: undefined, entries: untagged });
  const schemas = Object.entries(document.components?.schemas ?? {});
  const schemasId = ids("schemas");

  const out: string[] = [];
  out.push(
    "<!DOCTYPE html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)} API</title>`,
    `<link rel="stylesheet" href="${escapeHtml(links.stylesheetPath)}">`,
    "</head>",
    "<body>",
    '<a class="skip" href="#content">Skip to the operations</a>',
    "<header>",
    `<h1>${escapeHtml(title)} API</h1>`,
  );
  if (document.info?.description) out.push(`<p class="text">${escapeHtml(document.info.description)}</p>`);
  out.push("<dl class=\"facts\">");
  if (document.info?.version) out.push(`<dt>Version</dt><dd>${escapeHtml(document.info.version)}</dd>`);
  if (document.openapi) out.push(`<dt>OpenAPI</dt><dd>${escapeHtml(document.openapi)}</dd>`);
  out.push(`<dt>Document</dt><dd><a href="${escapeHtml(links.specPath)}">${escapeHtml(links.specPath)}</a> (JSON)</dd>`, "</dl>", "</header>");

  const securitySchemes = Object.entries(document.components?.securitySchemes ?? {});
  if (securitySchemes.length > 0) {
    out.push('<section aria-labelledby="authentication">', '<h2 id="authentication">Authentication</h2>', "<dl class=\"facts\">");
    for (const [name, scheme] of securitySchemes) {
      out.push(`<dt><code>${escapeHtml(name)}</code></dt><dd>${escapeHtml(describeScheme(scheme))}</dd>`);
    }
    out.push("</dl>", "</section>");
  }

  out.push('<nav aria-labelledby="contents">', '<h2 id="contents">Contents</h2>', "<ul>");
  for (const section of sections) {
    out.push(`<li><a href="#${escapeHtml(section.id)}">${escapeHtml(section.name)}</a>`, "<ul>");
    for (const entry of section.entries) {
      out.push(`<li><a href="#${escapeHtml(entry.id)}"><span class="method">${escapeHtml(entry.method.toUpperCase())}</span> <code>${escapeHtml(entry.path)}</code></a></li>`);
    }
    out.push("</ul>", "</li>");
  }
  if (schemas.length > 0) out.push(`<li><a href="#${escapeHtml(schemasId)}">Schemas</a></li>`);
  out.push("</ul>", "</nav>", '<main id="content">');

  for (const section of sections) {
    out.push(`<section aria-labelledby="${escapeHtml(section.id)}">`, `<h2 id="${escapeHtml(section.id)}">${escapeHtml(section.name)}</h2>`);
    if (section.description) out.push(`<p class="text">${escapeHtml(section.description)}</p>`);
    for (const entry of section.entries) out.push(renderOperation(document, entry));
    out.push("</section>");
  }
  if (schemas.length > 0) {
    out.push(`<section aria-labelledby="${escapeHtml(schemasId)}">`, `<h2 id="${escapeHtml(schemasId)}">Schemas</h2>`);
    for (const [name, schema] of schemas) {
      out.push(`<h3><code>${escapeHtml(name)}</code></h3>`, schemaBlock(schema));
    }
    out.push("</section>");
  }
  out.push("</main>", "</body>", "</html>", "");
  return out.join("\n");
}

function renderOperation(document: OpenApiDocument, { path, method, operation, id }: Entry): string {
  const headingId = `${id}-title`;
  const out: string[] = [
    `<article class="operation" id="${escapeHtml(id)}" aria-labelledby="${escapeHtml(headingId)}">`,
    `<h3 id="${escapeHtml(headingId)}"><span class="method method-${escapeHtml(method)}">${escapeHtml(method.toUpperCase())}</span> <code class="path">${escapeHtml(path)}</code></h3>`,
  ];
  if (operation.summary) out.push(`<p class="summary">${escapeHtml(operation.summary)}</p>`);
  if (operation.description) out.push(`<p class="text">${escapeHtml(operation.description)}</p>`);
  out.push('<dl class="facts">', `<dt>Bearer token</dt><dd>${escapeHtml(describeSecurity(document, operation.security ?? document.security))}</dd>`);
  if (operation.operationId) out.push(`<dt>Operation ID</dt><dd><code>${escapeHtml(operation.operationId)}</code></dd>`);
  if (operation.deprecated) out.push("<dt>Deprecated</dt><dd>yes</dd>");
  out.push("</dl>");

  const parameters = (operation.parameters ?? []) as Parameter[];
  if (parameters.length > 0) {
    out.push(
      "<h4>Parameters</h4>",
      "<table>",
      '<thead><tr><th scope="col">Name</th><th scope="col">In</th><th scope="col">Required</th><th scope="col">Schema</th><th scope="col">Description</th></tr></thead>',
      "<tbody>",
    );
    for (const parameter of parameters) {
      const { description: schemaDescription, ...schema } = parameter.schema ?? {};
      const description = parameter.description ?? schemaDescription;
      out.push(
        `<tr><th scope="row"><code>${escapeHtml(parameter.name)}</code>${parameter.deprecated ? " (deprecated)" : ""}</th>` +
          `<td>${escapeHtml(parameter.in)}</td><td>${parameter.required ? "yes" : "no"}</td>` +
          `<td><code>${escapeHtml(renderSchema(schema))}</code></td><td>${description ? escapeHtml(description) : ""}</td></tr>`,
      );
    }
    out.push("</tbody>", "</table>");
  }

  const body = resolve(document, operation.requestBody);
  if (body) {
    out.push("<h4>Request body</h4>", `<p>${body.required ? "Required" : "Optional"}.${body.description ? ` ${escapeHtml(body.description)}` : ""}</p>`);
    out.push(contentBlocks(body.content, "No schema documented."));
  }

  out.push("<h4>Responses</h4>");
  const responses = Object.entries(operation.responses ?? {});
  if (responses.length === 0) out.push("<p>None documented.</p>");
  else {
    out.push("<table>", '<thead><tr><th scope="col">Status</th><th scope="col">Description</th><th scope="col">Body</th></tr></thead>', "<tbody>");
    for (const [status, reference] of responses) {
      const response = resolve(document, reference);
      out.push(
        `<tr><th scope="row">${escapeHtml(status)}</th><td>${escapeHtml(response?.description ?? "")}</td>` +
          `<td>${contentBlocks(response?.content, "No body documented.", response?.description)}</td></tr>`,
      );
    }
    out.push("</tbody>", "</table>");
  }
  out.push("</article>");
  return out.join("\n");
}

/**
 * One schema per media type, or `none` when the document gives no media type. A schema's
 * description that only repeats the response's (`shown`) is not shown twice.
 */
function contentBlocks(content: MediaTypes | undefined, none: string, shown?: string): string {
  const entries = Object.entries(content ?? {});
  if (entries.length === 0) return `<p>${escapeHtml(none)}</p>`;
  return entries
    .map(([mediaType, media]) => `<p class="media-type"><code>${escapeHtml(mediaType)}</code></p>\n${media?.schema ? schemaBlock(media.schema, shown) : "<p>No schema documented.</p>"}`)
    .join("\n");
}

function schemaBlock(schema: Schema, shown?: string): string {
  const { description, ...rest } = schema;
  const comment = typeof description === "string" && description !== shown ? `// ${description.replace(/\n/g, "\n// ")}\n` : "";
  return `<pre class="schema">${escapeHtml(comment + renderSchema(rest))}</pre>`;
}

function describeScheme(scheme: { type?: string; scheme?: string; bearerFormat?: string; name?: string; in?: string; description?: string }): string {
  let text: string;
  if (scheme.type === "http" && scheme.scheme?.toLowerCase() === "bearer") {
    text = `Bearer token${scheme.bearerFormat ? ` (${scheme.bearerFormat})` : ""} in the header Authorization: Bearer <token>`;
  } else if (scheme.type === "apiKey") text = `API key in the ${scheme.in ?? ""} ${scheme.name ?? ""}`.replace(/\s+/g, " ");
  else text = [scheme.type, scheme.scheme].filter(Boolean).join(" ");
  return scheme.description ? `${text}. ${scheme.description}` : text;
}

/** Whether an operation needs a bearer token, from its security requirements. */
function describeSecurity(document: OpenApiDocument, requirements: Record<string, string[]>[] | undefined): string {
  if (!requirements || requirements.length === 0) return "not needed";
  const schemes = document.components?.securitySchemes ?? {};
  const isBearer = (name: string) => schemes[name]?.type === "http" && schemes[name]?.scheme?.toLowerCase() === "bearer";
  const alternatives = requirements.map((requirement) => Object.keys(requirement));
  const optional = alternatives.some((names) => names.length === 0);
  const bearer = alternatives.filter((names) => names.some(isBearer)).flat().filter(isBearer);
  const others = [...new Set(alternatives.flat().filter((name) => !isBearer(name)))];
  const parts: string[] = [];
  if (bearer.length > 0) parts.push(`${optional ? "optional" : "required"} (${[...new Set(bearer)].join(", ")})`);
  else parts.push(optional ? "not needed" : "not used");
  if (others.length > 0) parts.push(`other schemes: ${others.join(", ")}`);
  return parts.join("; ");
}

/** Path-level parameters, replaced by operation parameters of the same name and location. */
function mergeParameters(document: OpenApiDocument, pathLevel: (Parameter | Reference)[], operationLevel: (Parameter | Reference)[]): Parameter[] {
  const merged = new Map<string, Parameter>();
  for (const reference of [...pathLevel, ...operationLevel]) {
    const parameter = resolve(document, reference);
    if (parameter && typeof parameter.name === "string") merged.set(`${parameter.in} ${parameter.name}`, parameter);
  }
  return [...merged.values()];
}

/** Ids safe in a URL fragment, unique within the page. */
function uniqueIds(): (wanted: string) => string {
  const used = new Set<string>();
  return (wanted) => {
    const base =
      wanted
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-+|-+$/g, "") || "section";
    let id = base;
    for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
    used.add(id);
    return id;
  };
}
