import { Elysia } from "elysia";
import { StorageError, asStorageError, type StorageHealth } from "../db/storage";
import { ServiceError, type ErrorCode } from "../errors";
import type { Logger } from "../logger";

/** The one HTTP status of each error code. */
const statusOf: Record<ErrorCode, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  too_many: 429,
  failed: 500,
  unavailable: 503,
  storage_full: 507,
};

/** Answers to look up, for an unknown path or method, which methods a path does serve. */
export type AllowedMethods = (path: string) => string[];

/**
 * The single place where errors become responses. Every body is `{"error": ...}`: a
 * ServiceError answers its code's status with its message (and its details' extra keys
 * and `Retry-After`); a failure of the storage (a full, read-only or failing disk, a lock
 * held elsewhere, a damaged file) is one too, logged once by StorageHealth rather than once
 * per request; anything else unexpected is logged with its stack and answered with a
 * generic text, so no stack trace or SQL ever reaches a client.
 */
export const errorHandler = (logger: Logger, health: StorageHealth, allowedMethods: AllowedMethods) =>
  new Elysia({ name: "error-handler" }).onError({ as: "global" }, ({ code, error, set, request, path }) => {
    // Elysia wraps what a body parser throws (the 413 of an oversized body) in its ParseError.
    const raised = asStorageError(code === "PARSE" && error.cause instanceof ServiceError ? error.cause : error);
    if (raised instanceof ServiceError) {
      if (raised instanceof StorageError) health.failed(raised);
      set.status = statusOf[raised.code];
      if (raised.details.retryAfterSeconds !== undefined) set.headers["retry-after"] = String(raised.details.retryAfterSeconds);
      return { error: raised.message, ...raised.details.body };
    }
    switch (code) {
      case "NOT_FOUND": {
        const methods = allowedMethods(path);
        if (methods.length > 0) {
          set.status = 405;
          set.headers.allow = methods.join(", ");
          return { error: "Metode tidak diizinkan." };
        }
        set.status = 404;
        return { error: "Endpoint tidak ditemukan." };
      }
      case "VALIDATION":
        // An answer that breaks its own documented schema is the server's fault, not the client's.
        if (error.type === "response") {
          logger.error(`${request.method} ${path}: jawaban tidak sesuai skemanya: ${error.message}`);
          set.status = 500;
          return { error: "Terjadi kesalahan pada server." };
        }
        set.status = 400;
        return { error: "Permintaan tidak valid." };
      case "PARSE":
      case "INVALID_COOKIE_SIGNATURE":
        set.status = 400;
        return { error: "Permintaan tidak valid." };
      default:
        logger.error(`${request.method} ${path} gagal: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        set.status = 500;
        return { error: "Terjadi kesalahan pada server." };
    }
  });

/** Builds the allowed-methods lookup from the routes an app registered. */
export function routeMethodIndex(routes: readonly { method: string; path: string }[]): AllowedMethods {
  const patterns = routes
    // Catch-all routes (CORS preflight) say nothing about which methods a path serves.
    .filter((route) => !["ALL", "HEAD", "OPTIONS"].includes(route.method) && !route.path.includes("*"))
    .map((route) => ({
      method: route.method,
      pattern: new RegExp(
        "^" +
          route.path
            .split("/")
            .map((segment) => (segment.startsWith(":") ? "[^/]+" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
            .join("/") +
          "/?$",
      ),
    }));
  return (path) => [...new Set(patterns.filter((entry) => entry.pattern.test(path)).map((entry) => entry.method))];
}
