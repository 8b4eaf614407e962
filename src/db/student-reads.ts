import { eq, sql } from "drizzle-orm";
import type { DatabaseClient } from ".";
import { preparedOnFirstUse } from "./prepared";
import { mahasiswa, newestScreeningFirst, riwayatSkrining } from "./schema";

/** One student's row by NIM (placeholder `nim`): the lecturer's pages and the data export read it alike. */
export const studentByNimQuery = (db: DatabaseClient) =>
  preparedOnFirstUse(() => db.select().from(mahasiswa).where(eq(mahasiswa.nim, sql.placeholder("nim"))).prepare());

/** Every screening of one student (placeholder `nim`), newest first. */
export const screeningsOfStudentQuery = (db: DatabaseClient) =>
  preparedOnFirstUse(() => db.select().from(riwayatSkrining).where(eq(riwayatSkrining.nim, sql.placeholder("nim"))).orderBy(...newestScreeningFirst).prepare());
