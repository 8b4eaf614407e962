import { basename, join } from "node:path";
import { listBackups } from "../../backup/backup-names";
import { ServiceError, conflict, notFound } from "../../errors";
import type { RouteGuards } from "../../http/guards";
import { BackupMade, BackupsAnswer } from "./model";
import { adminController, adminOnly, consoleSource, download, type AdminDependencies } from "./base";

export const backupMessages = {
  notScheduled:
    "Cadangan otomatis tidak aktif, jadi konsol tidak punya folder cadangan. Jalankan serve dengan --backup-dir <folder>, atau buat cadangan dengan perintah 'skrining backup FILE'.",
  unknown: (name: string) => `Cadangan ${name} tidak ada di folder cadangan.`,
  failed: (reason: string) => `Cadangan gagal: ${reason}. Cadangan lama tidak dihapus.`,
  done: (name: string) => `Cadangan manual ${name} tersimpan dan sudah diperiksa utuh. Rotasi cadangan otomatis tidak menghapusnya: hapus sendiri bila tidak diperlukan lagi.`,
} as const;

/**
 * "Cadangan": serve's automatic backups (their folder, period, how many are kept, the next
 * one and the last outcome), the archives in that folder by kind (with who took a manual
 * one), a manual backup now and the download of one. Restoring stays a command: it replaces
 * the running service's data.
 */
export const cadanganController = (guards: RouteGuards, dependencies: AdminDependencies) =>
  adminController(guards, dependencies, "/cadangan")
    .get(
      "",
      () => {
        const schedule = dependencies.backups?.status() ?? null;
        return { jadwal: schedule, cadangan: schedule ? listBackups(schedule.folder, (name) => dependencies.backups!.takenBy(name)) : [] };
      },
      { access: adminOnly, response: { 200: BackupsAnswer } },
    )
    .post(
      "",
      async ({ principal, request, route }) => {
        if (!dependencies.backups) throw conflict(backupMessages.notScheduled);
        // A manual archive, named as such and kept out of the rotation (issue 44), with who asked for it.
        const outcome = await dependencies.backups.backUpNow(principal.username);
        if (!outcome.ok) throw new ServiceError("failed", backupMessages.failed(outcome.reason));
        const name = basename(outcome.target);
        await dependencies.context.audit.record({ ...consoleSource(dependencies, principal, request, route), action: "create", detail: `cadangan manual ${name} dibuat di folder cadangan` });
        return { message: backupMessages.done(name), nama: name };
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
