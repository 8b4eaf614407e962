import { appendAuditRows } from "../../audit/trail";
import { invalid } from "../../errors";
import type { JsonObject } from "../../requests/values";
import type { Principal } from "../../requests/principal";
import type { RouteGuards } from "../../http/guards";
import { privasiRequestMessages } from "../../privasi/service";
import { formatLocalTimestamp } from "../../local-time";
import { Erased, Restricted, StudentRequest, Unrestricted } from "./model";
import { adminController, adminOnly, assertConfirmed, consoleSource, download, formText, type AdminDependencies } from "./base";

export const privacyConsoleMessages = {
  typeNim: (nim: string) => `Ketik NIM ${nim} sekali lagi untuk mengonfirmasi penghapusan.`,
  erased: (nim: string) => `Seluruh data mahasiswa ${nim} dihapus; hanya jejak audit yang masih menyebut NIM-nya.`,
  restricted: (nim: string, since: string) => `Pemrosesan data mahasiswa ${nim} dibatasi sejak ${since}.`,
  unrestricted: (nim: string) => `Pembatasan pemrosesan data mahasiswa ${nim} diakhiri.`,
} as const;

/**
 * "Permintaan data pribadi" (UU PDP): for one NIM, what erasure would remove (the dry
 * run, shown first), the export as a download, restriction and its end (confirmed with the
 * admin's password), and the erasure itself, confirmed by typing the NIM again and the
 * admin's password. `skrining privacy
 * ...`'s service, with its audit rows.
 */
export const privasiController = (guards: RouteGuards, dependencies: AdminDependencies) => {
  const { context, privacy, documents, photoStore: photos } = dependencies;
  /** An export as a download, after its audit row: there is no export the trail does not show. */
  const exported = async (principal: Principal, nim: string, request: Request, route: string, form: "archive" | "json") => {
    // The archive writer is loaded when an export is asked for, not with the server (as the command does).
    const { exportAuditEntry, planStudentExport } = await import("../data-saya/export");
    const plan = planStudentExport(documents, photos, nim, privasiRequestMessages.studentUnknown(nim));
    await context.writes.run(() => appendAuditRows(context.db.$client, [exportAuditEntry(consoleSource(dependencies, principal, request, route), plan, form)]));
    const day = formatLocalTimestamp(new Date().toISOString(), context.config.timeZone).slice(0, 10);
    return form === "json"
      ? download(plan.json, `data-saya-${nim}-${day}.json`, "application/json; charset=utf-8")
      : download(plan.archive.bytes, `data-saya-${nim}-${day}.tar.gz`, "application/gzip");
  };
  return adminController(guards, dependencies, "/privasi")
    .get("/:nim", ({ params }) => ({ ...privacy.studentOf(params.nim), hapus: privacy.planErase(params.nim) }), { access: adminOnly, response: { 200: StudentRequest } })
    .get("/:nim/ekspor", ({ principal, params, request, route }) => exported(principal, params.nim, request, route, "archive"), { access: adminOnly })
    // The document alone, one JSON file a student opens anywhere (issue 44, item 14); the archive adds the photo.
    .get("/:nim/ekspor/json", ({ principal, params, request, route }) => exported(principal, params.nim, request, route, "json"), { access: adminOnly })
    .post(
      "/:nim/batasi",
      async ({ principal, params, request, route }) => {
        const { since, screeningsLeftOut } = await privacy.restrict(params.nim, consoleSource(dependencies, principal, request, route), false);
        return { message: privacyConsoleMessages.restricted(params.nim, since), skrining_keluar_statistik: screeningsLeftOut };
      },
      { access: adminOnly, response: { 200: Restricted } },
    )
    .post(
      "/:nim/akhiri-pembatasan",
      async ({ principal, claims, headers, params, request, route }) => {
        // Ending a restriction lets the staff read the student's data again: a way in (decisions §21).
        assertConfirmed(dependencies, { principal, claims, headers, request });
        const { screeningsCountedAgain } = await privacy.unrestrict(params.nim, consoleSource(dependencies, principal, request, route), false);
        return { message: privacyConsoleMessages.unrestricted(params.nim), skrining_dihitung_lagi: screeningsCountedAgain };
      },
      { access: adminOnly, response: { 200: Unrestricted } },
    )
    .post(
      "/:nim/hapus",
      async ({ principal, claims, headers, params, body, request, route }) => {
        // The NIM typed again first: a slip of the mouse on the wrong student stops here.
        if (formText(body as JsonObject, "nim_konfirmasi").trim() !== params.nim) throw invalid(privacyConsoleMessages.typeNim(params.nim));
        assertConfirmed(dependencies, { principal, claims, headers, request });
        const erased = await privacy.erase(params.nim, consoleSource(dependencies, principal, request, route));
        return {
          message: privacyConsoleMessages.erased(params.nim),
          baris: erased.rows,
          file: erased.files,
          file_gagal_dihapus: erased.fileFailures,
          wal_dikosongkan: erased.walEmptied,
        };
      },
      { access: adminOnly, response: { 200: Erased } },
    );
};
