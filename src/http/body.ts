import { Elysia } from "elysia";
import { ServiceError, invalid } from "../errors";
import { fileSize } from "../file-size";
import type { JsonObject } from "../requests/values";

/**
 * Reads request bodies the way the earlier service did: anything that is not a JSON
 * object (missing, malformed, an array, a form, plain text) becomes `{}`, and the route's
 * own rules then answer with their usual texts. Only the routes named in
 * `multipartRoutes` read multipart forms, each up to its own limit (a photo, a roster, a
 * model file). Oversized bodies answer 413. First, `checksBeforeBody` runs the route's
 * checks that need no body (decisions §21, src/http/body-gate.ts): a refused request is
 * answered without its body ever being read.
 */
export const bodyParser = (options: {
  jsonLimitBytes: number;
  multipartRoutes: ReadonlyMap<string, number>;
  checksBeforeBody: (request: Request, route: string) => Promise<void> | undefined;
}) =>
  new Elysia({ name: "body-parser" }).onParse({ as: "global" }, async ({ request, route }) => {
    await options.checksBeforeBody(request, route);
    const multipartLimit = options.multipartRoutes.get(route);
    const multipart = multipartLimit !== undefined;
    const limit = multipartLimit ?? options.jsonLimitBytes;
    const declared = Number(request.headers.get("content-length"));
    if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
    const contentType = request.headers.get("content-type") ?? "";
    if (multipart && !contentType.startsWith("multipart/form-data")) return {};
    // Read the bytes first: a chunked body declares no length, and must not grow unbounded.
    const bytes = await request.arrayBuffer();
    if (bytes.byteLength > limit) throw tooLarge(limit);
    if (multipart) {
      try {
        return await new Response(bytes, { headers: { "content-type": contentType } }).formData();
      } catch {
        return {};
      }
    }
    return parseJsonObject(new TextDecoder().decode(bytes));
  });

/** Deeper bodies are refused (decisions §10): storing one as `input_jawaban` would overflow the stack. */
const maxBodyDepth = 32;

function parseJsonObject(text: string): JsonObject {
  if (text === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {};
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return {};
  if (depthExceeds(value, maxBodyDepth)) throw invalid(`Struktur data terlalu dalam (paling banyak ${maxBodyDepth} tingkat).`);
  return value as JsonObject;
}

/** Whether objects and arrays nest deeper than `limit`, walked without recursion. */
function depthExceeds(root: object, limit: number): boolean {
  const pending: [unknown, number][] = [[root, 1]];
  while (pending.length > 0) {
    const [value, depth] = pending.pop()!;
    if (depth > limit) return true;
    for (const child of Object.values(value as object)) {
      if (child !== null && typeof child === "object") pending.push([child, depth + 1]);
    }
  }
  return false;
}

function tooLarge(limit: number): ServiceError {
  return new ServiceError("too_large", `Ukuran data melebihi batas ${fileSize(limit)}.`);
}
