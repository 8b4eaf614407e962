/**
 * What went wrong, as a client or an admin acts on it. Each code has one HTTP status
 * (src/http/handler.ts) and one exit code of the command line (cli/main.ts).
 */
export type ErrorCode =
  /** 400: the request or the input breaks a rule. */
  | "invalid"
  /** 401: no usable token or credentials. */
  | "unauthenticated"
  /** 403: the caller may not do this. */
  | "forbidden"
  /** 404: what the request names does not exist. */
  | "not_found"
  /** 409: it would break a rule about other data (one mood per date). */
  | "conflict"
  /** 413: the request is larger than allowed. */
  | "too_large"
  /** 429: too many attempts or writes; `retryAfterSeconds` says when to try again. */
  | "too_many"
  /** 500: a failure whose text the interface itself fixes (activation, photo save). */
  | "failed"
  /** 503: the storage cannot be used now (locked, read-only, damaged, failing). */
  | "unavailable"
  /** 507: no space left to store data. */
  | "storage_full";

interface ErrorDetails {
  /** Further keys of the answer's body; the weekly limit adds `message`, `last_submission_date`, `days_remaining`. */
  body?: Record<string, unknown>;
  /** Seconds before a retry can succeed (`Retry-After`). */
  retryAfterSeconds?: number;
  /** Further lines for an admin, printed by the command line before the message (the bad rows of an import). */
  lines?: string[];
}

/**
 * The one kind of error the service raises on purpose, from a route's rule as from a
 * command or the model reader: a code, the Indonesian message a person reads, and
 * optional details. Nothing below the HTTP layer knows about statuses or responses.
 */
export class ServiceError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

export const invalid = (message: string, details?: ErrorDetails) => new ServiceError("invalid", message, details);
export const unauthenticated = (message: string) => new ServiceError("unauthenticated", message);
export const forbidden = (message: string) => new ServiceError("forbidden", message);
export const notFound = (message: string) => new ServiceError("not_found", message);
export const conflict = (message: string) => new ServiceError("conflict", message);

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

/** Input of a kind its readers refuse as a whole (a model file, a pickle, a CSV, a picture); caught by name where it matters. */
export class InvalidInput extends ServiceError {
  constructor(message: string, details?: ErrorDetails) {
    super("invalid", message, details);
  }
}
