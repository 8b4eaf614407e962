import type { TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";

/**
 * A JSON answer sent as the text made the first time its value was answered (issue 28).
 * The hot reads answer the same object from a read cache again and again (a lecturer's
 * page of 20 advisees is 14 KB: 14–17 µs to serialize and about as much to check against
 * its schema at every request); this answer is checked and serialized once per object and
 * then sent as that text. It carries its value, so that what reads the answer after the
 * handler (the audit rule naming the page's students) still sees it.
 */
export class JsonAnswer extends Response {
  constructor(
    readonly value: object,
    text: string,
    headers: Record<string, string>,
  ) {
    super(text, { headers: { ...headers, "content-type": "application/json;charset=utf-8" } });
  }
}

/** What a handler's `set` holds of the answer's headers (the CORS and security headers the hooks before it set). */
interface AnswerHeaders {
  headers: Record<string, unknown>;
}

/**
 * The headers set so far, moved into the answer: Elysia copies a returned Response into a
 * new one whenever `set.headers` still holds something (a second Response, every header
 * set again, its body read through a stream), which cost a cached read more than the rest
 * of its answer. Headers a later hook sets are still merged in by Elysia.
 */
function takeHeaders(set: AnswerHeaders): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name in set.headers) {
    headers[name] = String(set.headers[name]);
    delete set.headers[name];
  }
  return headers;
}

/**
 * The answer of a route whose value comes from a read cache. `schema` is the route's
 * answer schema, checked as Elysia would have (compiled at the first answer, not at start):
 * an answer that breaks it is the server's fault (500).
 */
export function cachedJson<Value extends object>(schema: TSchema) {
  let checker: ReturnType<typeof TypeCompiler.Compile> | undefined;
  const texts = new WeakMap<object, string>();
  return (value: Value, set: AnswerHeaders): JsonAnswer => {
    let text = texts.get(value);
    if (text === undefined) {
      checker ??= TypeCompiler.Compile(schema);
      if (!checker.Check(value)) {
        const first = checker.Errors(value).First();
        throw new Error(`jawaban tidak sesuai skemanya: ${first ? `${first.path} ${first.message}` : "tidak diketahui"}`);
      }
      text = JSON.stringify(value);
      texts.set(value, text);
    }
    return new JsonAnswer(value, text, takeHeaders(set));
  };
}
