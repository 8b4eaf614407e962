/**
 * The one kind of error the service raises on purpose. Its body is what the client sees;
 * `error` is always there, some rules add keys (the weekly limit, for example).
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: { error: string } & Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(body.error);
  }
}

export const badRequest = (error: string) => new HttpError(400, { error });
export const unauthorized = (error: string) => new HttpError(401, { error });
export const forbidden = (error: string) => new HttpError(403, { error });
export const notFound = (error: string) => new HttpError(404, { error });

/**
 * A failure's own message for the rare texts that must name it (activation's
 * `Terjadi kesalahan: ...`), without the SQL statement that drizzle puts in its wrapper.
 */
export function describeFailure(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? cause.message : error.message.replace(/^Failed query:[\s\S]*$/, "kueri basis data gagal");
  }
  return String(error);
}
