/**
 * A large JSON document given out in pieces, the event loop free between them: the same
 * text as `JSON.stringify(document)`, but an array of many entries (a diary at its quota,
 * years of accesses) is written entry by entry, and every `chunkBytes` the serializer waits
 * one turn, so other requests are answered meanwhile (issue 26: a student's Data saya of
 * 2 MB held /health for 250 ms).
 */
const chunkBytes = 64 * 1024;

const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export async function* jsonPieces(document: Record<string, unknown>): AsyncGenerator<string> {
  let pending = "{";
  let first = true;
  for (const [key, value] of Object.entries(document)) {
    if (value === undefined) continue;
    pending += `${first ? "" : ","}${JSON.stringify(key)}:`;
    first = false;
    if (!Array.isArray(value)) {
      pending += JSON.stringify(value);
      continue;
    }
    pending += "[";
    for (let index = 0; index < value.length; index++) {
      pending += `${index === 0 ? "" : ","}${JSON.stringify(value[index] ?? null)}`;
      // Arrays are where the size is: give out what is ready, then let others in.
      if (pending.length >= chunkBytes) {
        yield pending;
        pending = "";
        await nextTurn();
      }
    }
    pending += "]";
  }
  yield `${pending}}`;
}

/** The pieces as the body of a JSON answer that no cache keeps (decisions §9). */
export function streamedJson(pieces: AsyncGenerator<string>): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await pieces.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await pieces.return(undefined);
    },
  });
  return new Response(body, { headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff" } });
}
