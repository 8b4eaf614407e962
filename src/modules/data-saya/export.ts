import { gzipSync } from "node:zlib";
import { existsSync, readFileSync } from "node:fs";
import { extname } from "node:path";
import { fileHeader, padding } from "../../backup/archive";
import type { PhotoStore } from "../../photos/storage";
import { safeNimOf } from "../../photos/storage";
import type { AuditEntry, AuditSource } from "../../audit/trail";
import { documentMessages, type StudentDataDocument, type StudentDataDocuments } from "./document";
import type { TableCounts } from "../../privasi/service";

/** One student's export: the archive's bytes and what it holds. */
export interface StudentExport {
  bytes: Uint8Array;
  /** Entry names in the archive. */
  entries: string[];
}

/**
 * The `privacy export` archive, a .tar.gz that any archive program opens:
 *
 *     data-saya-<nim>/data-saya.json   the document of GET /api/mahasiswa/data-saya
 *     data-saya-<nim>/foto.<ext>       the profile photo, when the student has one on disk
 *
 * Built in memory (the document and one photo of at most a few MB) so that no unpacked
 * copy of the data is left on disk.
 */
export function studentArchive(document: StudentDataDocument, photoPath: string | null, photos: PhotoStore): StudentExport {
  const folder = `data-saya-${safeNimOf(document.profil.nim)}`;
  const now = new Date(document.dibuat_pada);
  const files: { name: string; bytes: Buffer }[] = [{ name: `${folder}/data-saya.json`, bytes: Buffer.from(JSON.stringify(document, null, 2) + "\n") }];
  const photoFile = photoPath === null ? null : photos.locate(photoPath);
  if (photoFile !== null && existsSync(photoFile)) files.push({ name: `${folder}/foto${extname(photoFile)}`, bytes: readFileSync(photoFile) });
  const blocks: Buffer[] = [];
  for (const file of files) blocks.push(...fileHeader(file.name, file.bytes.length, now), file.bytes, padding(file.bytes.length));
  // Two zero blocks end a tar archive.
  blocks.push(Buffer.alloc(1024));
  return { bytes: gzipSync(Buffer.concat(blocks)), entries: files.map((file) => file.name) };
}

/** `privacy export` and the admin console's download: a student's archive and what it holds. */
export interface StudentExportPlan {
  nim: string;
  archive: StudentExport;
  /** The document alone (data-saya.json without the photo): the console's plain download (issue 44, item 14). */
  json: Buffer;
  /** The document's parts, counted, for the admin to see before and after. */
  summary: TableCounts;
}

export function planStudentExport(documents: StudentDataDocuments, photos: PhotoStore, nim: string, unknown: string = documentMessages.studentUnknown): StudentExportPlan {
  const document = documents.of(nim, unknown);
  return {
    nim,
    archive: studentArchive(document, document.profil.foto_profil, photos),
    json: Buffer.from(JSON.stringify(document, null, 2) + "\n"),
    summary: {
      skrining: document.skrining.length,
      mood: document.mood.length,
      jurnal: document.jurnal.length,
      catatan: document.catatan.length,
      pemberitahuan_privasi: document.pemberitahuan_privasi.length,
      dilihat_oleh: document.dilihat_oleh.length,
    },
  };
}

/** The export's audit row: there is no export the trail does not show (written before, or with, handing it out). */
export function exportAuditEntry(source: AuditSource, plan: StudentExportPlan, form: "archive" | "json" = "archive"): AuditEntry {
  const detail = form === "json" ? "ekspor data-saya (data-saya.json, tanpa foto)" : `ekspor data-saya (${plan.archive.entries.length} file dalam arsip)`;
  return { ...source, action: "privacy", nim: plan.nim, detail };
}
