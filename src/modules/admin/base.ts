import { Elysia } from "elysia";
import { ServiceError } from "../../errors";
import { fileSize } from "../../file-size";
import type { AuditSource } from "../../audit/trail";
import type { AutomaticBackups } from "../../backup/automatic";
import type { ServedTls } from "../../tls/served";
import type { AppContext } from "../../context";
import { adminApiPrefix, assertAdminWeb } from "../../http/admin-web";
import { beforeBody } from "../../http/body-gate";
import { principalActor, type Principal } from "../../requests/principal";
import { access, type RouteGuards } from "../../http/guards";
import type { ModelRegistry } from "../../models/registry";
import type { PrivasiRequestService } from "../../privasi/service";
import type { PhotoStore } from "../../photos/storage";
import type { KontenService } from "../konten/service";
import type { StudentDataDocuments } from "../data-saya/document";
import type { StatisticsExporter } from "../dosen/export";
import type { SafetyQuestionService } from "../keselamatan/service";
import type { TokenClaims } from "../../auth/tokens";
import { type AdminConfirmations, confirmationHeader } from "./confirmation";
import type { TindakLanjutFiguresReader } from "../tindak-lanjut/figures";

/** What the console's routes use: the core, the features' services it names, and the few of its own. */
export interface AdminDependencies {
  context: AppContext;
  /** The faculty's texts (Teks), the content module's. */
  content: KontenService;
  /** The safety question (Teks), the keselamatan module's. */
  safety: SafetyQuestionService;
  /** A student's data document (the privacy export), the data-saya module's. */
  documents: StudentDataDocuments;
  /** The photo folder, the profil module's. */
  photoStore: PhotoStore;
  clientAddress: (request: Request) => string;
  /** Where the console opens on the PC itself (its scheme and port once serve listens). */
  consoleAddress: () => string;
  confirmations: AdminConfirmations;
  /** serve's automatic backups; null when it runs without --backup-dir (and under app.handle() in tests that pass none). */
  backups: AutomaticBackups | null;
  /** The certificate serve serves and where; null on plain HTTP (and under app.handle() in tests that pass none). */
  tls: ServingTls | null;
  registry: ModelRegistry;
  privacy: PrivasiRequestService;
  exporter: StatisticsExporter;
  /** The follow-up figures, made by the tindak-lanjut module: the export's and the weekly report's. */
  figures: TindakLanjutFiguresReader;
}

/** A serving process's certificate, with the addresses it is served at now (the PC's addresses may change). */
export interface ServingTls {
  served: ServedTls;
  addresses: () => { https: string[]; certificatePage: string[] };
}

/** The console's routes are for admins only; everyone else hears the usual 403. */
export const adminOnly = access.adminOnly;

/**
 * The `--admin-web` rule for every console route, checked before anything else (before
 * the token, and before a body is read): a request from elsewhere learns only which option
 * keeps it out. A new instance per controller, unnamed, so that Elysia's de-duplication
 * never drops it.
 */
const adminWebGuard = (dependencies: AdminDependencies) =>
  new Elysia().onTransform(
    { as: "scoped" },
    beforeBody(({ request }) => assertAdminWeb(dependencies.context.config.adminWeb, dependencies.clientAddress(request), dependencies.consoleAddress())),
  );

/** A controller of the console under `/api/admin<prefix>`: the `--admin-web` rule, then the usual route guards. */
export const adminController = (guards: RouteGuards, dependencies: AdminDependencies, prefix: string) =>
  new Elysia({ prefix: `${adminApiPrefix}${prefix}`, tags: ["admin"] }).use(adminWebGuard(dependencies)).use(guards);

/** The audit rows of a console act: the admin, the route's pattern and the client's address (a command's rows name the command). */
export function consoleSource(dependencies: AdminDependencies, principal: Principal, request: Request, route: string): AuditSource {
  return { actor: principalActor(principal), target: `${request.method} ${route}`, clientAddress: dependencies.clientAddress(request) };
}

/**
 * An act that can give access goes ahead only with this session's fresh confirmation of
 * this very act (decisions §21), which it uses up (403 `konfirmasi_diperlukan` otherwise).
 */
export function assertConfirmed(
  dependencies: AdminDependencies,
  caller: { principal: Principal; claims: TokenClaims; headers: Record<string, string | undefined>; request: Request },
): void {
  dependencies.confirmations.use(caller.principal, caller.claims, caller.headers[confirmationHeader], caller.request);
}

/** A file the console hands out: no cache, never shown inline, named for saving. */
export function download(body: Uint8Array | string | Blob, fileName: string, mediaType: string): Response {
  return new Response(body, {
    headers: {
      "content-type": mediaType,
      "content-disposition": `attachment; filename="${fileName.replace(/[^A-Za-z0-9._-]/g, "_")}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}

/**
 * A file field of a multipart form (the body parser's FormData), or null when there is
 * none; a file larger than `limitBytes` is refused (413) before it is read. The body
 * parser's own limit is the form's, a little more.
 */
export function uploadedFile(body: unknown, field: string, limitBytes: number): File | null {
  if (!(body instanceof FormData)) return null;
  const value = body.get(field);
  if (!(value instanceof File)) return null;
  // The limit as the page shows it (issue 44): `5 MB`, `5,5 MB` (src/file-size.ts for both).
  if (value.size > limitBytes) throw new ServiceError("too_large", `Ukuran file melebihi batas ${fileSize(limitBytes)}. Pilih file yang lebih kecil, atau pakai perintah skrining di PC server untuk file sebesar ini.`);
  return value;
}

/** A text field of a multipart form or a JSON body; "" when absent. */
export function formText(body: unknown, field: string): string {
  const value = body instanceof FormData ? body.get(field) : typeof body === "object" && body !== null ? (body as Record<string, unknown>)[field] : undefined;
  return typeof value === "string" ? value : "";
}
