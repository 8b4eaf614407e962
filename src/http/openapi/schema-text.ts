// A compact, TypeScript-like rendering of a JSON schema, for the page's parameters, bodies and schemas.
import { pointerToken, type Schema } from "./document";

const maxDepth = 12;

/**
 * `{ name: string; nama?: string | null }` style text: `?` marks an optional property,
 * `// ...` a description, `(...)` a format, range or default.
 */
export function renderSchema(schema: unknown, indent = "", depth = 0): string {
  if (schema === true || schema === undefined) return "any";
  if (schema === false) return "never";
  if (typeof schema !== "object" || schema === null) return "any";
  if (depth > maxDepth) return "…";
  const s = schema as Schema;
  if (typeof s.$ref === "string") return s.$ref.startsWith("#/components/schemas/") ? pointerToken(s.$ref.slice("#/components/schemas/".length)) : s.$ref;
  if ("const" in s) return JSON.stringify(s.const) ?? "any";
  if (Array.isArray(s.enum)) return withNull(s.enum.map((value: unknown) => JSON.stringify(value)).join(" | "), s);
  for (const [keyword, separator] of [["anyOf", " | "], ["oneOf", " | "], ["allOf", " & "]] as const) {
    if (Array.isArray(s[keyword])) {
      const parts = [...new Set(s[keyword].map((part: unknown) => renderSchema(part, indent, depth + 1)))];
      return withNull(parts.length === 1 ? parts[0]! : parts.map((part) => (isCompound(part, indent) ? `(${part})` : part)).join(separator), s);
    }
  }
  const types: string[] = Array.isArray(s.type) ? s.type : typeof s.type === "string" ? [s.type] : [];
  if (types.length === 0) {
    if (s.properties || s.additionalProperties || s.patternProperties) types.push("object");
    else if (s.items) types.push("array");
  }
  if (types.length === 0) return withNull(annotate("any", s), s);
  const rendered = types.map((type) => {
    if (type === "object") return renderObject(s, indent, depth);
    if (type === "array") return renderArray(s, indent, depth);
    return annotate(type, s);
  });
  return withNull(rendered.join(" | "), s);
}

/** Whether a rendering is a union or intersection at its own level (not inside its properties). */
function isCompound(text: string, indent: string): boolean {
  return text
    .split("\n")
    .filter((line, index) => index === 0 || !line.startsWith(`${indent} `))
    .some((line) => / [|&] /.test(line));
}

function withNull(text: string, schema: Schema): string {
  return schema.nullable === true && !text.split(" | ").includes("null") ? `${text} | null` : text;
}

/** Format, bounds and default, in parentheses after the type. */
function annotate(type: string, s: Schema): string {
  const notes: string[] = [];
  if (typeof s.format === "string") notes.push(s.format);
  const range = (low: unknown, high: unknown, unit = "") => {
    if (low !== undefined && high !== undefined) notes.push(`${low}..${high}${unit}`);
    else if (low !== undefined) notes.push(`≥ ${low}${unit}`);
    else if (high !== undefined) notes.push(`≤ ${high}${unit}`);
  };
  range(s.minimum, s.maximum);
  // OpenAPI 3.1 gives exclusive bounds as numbers (3.0 as flags next to minimum/maximum).
  if (typeof s.exclusiveMinimum === "number") notes.push(`> ${s.exclusiveMinimum}`);
  if (typeof s.exclusiveMaximum === "number") notes.push(`< ${s.exclusiveMaximum}`);
  range(s.minLength, s.maxLength, " chars");
  if (typeof s.pattern === "string") notes.push(`pattern ${s.pattern}`);
  if (s.default !== undefined) notes.push(`default ${JSON.stringify(s.default)}`);
  return notes.length > 0 ? `${type} (${notes.join(", ")})` : type;
}

function renderArray(s: Schema, indent: string, depth: number): string {
  const item = renderSchema(s.items, indent, depth + 1);
  const element = isCompound(item, indent) ? `(${item})` : item;
  const notes: string[] = [];
  if (s.minItems !== undefined || s.maxItems !== undefined) notes.push(`${s.minItems ?? 0}..${s.maxItems ?? "∞"} items`);
  if (s.uniqueItems) notes.push("unique");
  return `${element}[]${notes.length > 0 ? ` (${notes.join(", ")})` : ""}`;
}

function renderObject(s: Schema, indent: string, depth: number): string {
  const inner = `${indent}  `;
  const required = new Set<string>(Array.isArray(s.required) ? s.required : []);
  const lines: string[] = [];
  for (const [key, value] of Object.entries((s.properties ?? {}) as Record<string, Schema>)) {
    const description = value && typeof value === "object" && typeof value.description === "string" ? `  // ${value.description.replace(/\s*\n\s*/g, " ")}` : "";
    const name = /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
    const text = renderSchema(value, inner, depth + 1);
    // The comment goes at the end of the property's first line, which for an object is `{`.
    const [first, ...rest] = text.split("\n");
    lines.push([`${inner}${name}${required.has(key) ? "" : "?"}: ${first}${description}`, ...rest].join("\n"));
  }
  for (const [pattern, value] of Object.entries((s.patternProperties ?? {}) as Record<string, Schema>)) {
    const key = pattern === "^(.*)$" || pattern === ".*" || pattern === "^.*$" ? "[key: string]" : `[key matching /${pattern}/]`;
    lines.push(`${inner}${key}: ${renderSchema(value, inner, depth + 1)}`);
  }
  // `additionalProperties: true` is JSON Schema's default; only a schema for the extra keys is shown.
  if (s.additionalProperties && typeof s.additionalProperties === "object") {
    lines.push(`${inner}[key: string]: ${renderSchema(s.additionalProperties, inner, depth + 1)}`);
  }
  if (lines.length === 0) return "object";
  return `{\n${lines.join("\n")}\n${indent}}`;
}
