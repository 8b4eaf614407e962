import { Elysia } from "elysia";
import { StorageError, asStorageError, storageMessages, type StorageHealth } from "../db/storage";
import type { Logger } from "../logger";
import { HttpError } from "./errors";

/** Seconds a client is told to wait: a lock is released soon, space or a disk takes a person. */
const retryAfterSeconds = { busy: 2, full: 60, readonly: 60, io: 60, damaged: 300 } as const;

/** Answers to look up, for an unknown path or method, which methods a path does serve. */
export type AllowedMethods = (path: string) => string[];

/**
 * The single place where errors become responses. Every body is `{"error": ...}`; a
 * failure of the storage (a full, read-only or failing disk, a lock held elsewhere, a
 * damaged file) answers 507 or 503 with an Indonesian text and `Retry-After`, logged once
 * by StorageHealth rather than once per request; anything else unexpected is logged with
 * its stack and answered with a generic text, so no stack trace or SQL ever reaches a client.
 */
export const errorHandler = (logger: Logger, health: StorageHealth, allowedMethods: AllowedMethods) =>
  new Elysia({ name: "error-handler" }).onError({ as: "global" }, ({ code, error, set, request, path }) => {
    // Elysia wraps what a body parser throws (the 413 of an oversized body) in its ParseError.
    const raised = code === "PARSE" && error.cause instanceof HttpError ? error.cause : error;
    if (raised instanceof HttpError) {
      set.status = raised.status;
      Object.assign(set.headers, raised.headers);
      return raised.body;
    }
    const storage = asStorageError(raised);
    if (storage instanceof StorageError) {
      health.failed(storage);
      set.status = storage.problem === "full" ? 507 : 503;
      set.headers["retry-after"] = String(retryAfterSeconds[storage.problem]);
      return { error: storageMessages[storage.problem] };
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
      case "PARSE":
      case "VALIDATION":
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
