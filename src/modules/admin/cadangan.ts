import { basename, join } from "node:path";
import { listBackups } from "../../backup/automatic";
import { ServiceError, conflict, notFound } from "../../errors";
import type { RouteGuards } from "../../http/guards";
import { BackupMade, BackupsAnswer } from "./model";
import { adminController, adminOnly, consoleSource, download, type AdminDependencies } from "./base";

export const backupMessages = {
  notScheduled:
    "Cadangan otomatis tidak aktif, jadi konsol tidak punya folder cadangan. Jalankan serve dengan --backup-dir <folder>, atau buat cadangan dengan perintah 'skrining backup FILE'.",
  unknown: (name: string) => `Cadangan ${name} tidak ada di folder cadangan.`,
  failed: (reason: string) => `Cadangan gagal: ${reason}. Cadangan lama tidak dihapus.`,
  done: (name: string, removed: number) => `Cadangan ${name} tersimpan dan sudah diperiksa utuh${removed > 0 ? `; ${removed} cadangan otomatis lama dihapus` : ""}.`,
} as const;

/**
 * "Cadangan": serve's automatic backups (their folder, period, how many are kept, the next
 * one and the last outcome), the archives in that folder, a backup now and the download of
 * one. Restoring stays a command: it replaces the running service's data.
 */
export const cadanganController = (guards: RouteGuards, dependencies: AdminDependencies) =>
  adminController(guards, dependencies, "/cadangan")
    .get(
      "",
      () => {
        const schedule = dependencies.backups?.status() ?? null;
        return { jadwal: schedule, cadangan: schedule ? listBackups(schedule.folder) : [] };
      },
      { access: adminOnly, response: { 200: BackupsAnswer } },
    )
    .post(
      "",
      async () => {
        if (!dependencies.backups) throw conflict(backupMessages.notScheduled);
        const outcome = await dependencies.backups.backUpNow();
        if (!outcome.ok) throw new ServiceError("failed", backupMessages.failed(outcome.reason));
        return { message: backupMessages.done(basename(outcome.target), outcome.removed), nama: basename(outcome.target) };
      },
      { access: adminOnly, response: { 200: BackupMade } },
    )
    .get(
      "/:name",
      async ({ principal, params, request, route }) => {
        const schedule = dependencies.backups?.status();
        if (!schedule) throw conflict(backupMessages.notScheduled);
        // Only an archive the listing shows: a name is never a path.
        const found = listBackups(schedule.folder).find((backup) => backup.name === params.name);
        if (!found) throw notFound(backupMessages.unknown(params.name));
        // The archive holds every student's data: handing it to a browser is an export, and the trail shows it first.
        await dependencies.context.audit.record({ ...consoleSource(dependencies, principal, request, route), action: "export", detail: `cadangan ${found.name} diunduh (${found.size} byte)` });
        // Streamed from the disk: an archive with every photo is too large to hold in memory.
        return download(Bun.file(join(schedule.folder, found.name)), found.name, found.encrypted ? "application/octet-stream" : "application/gzip");
      },
      { access: adminOnly },
    );
