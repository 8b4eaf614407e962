import { sql } from "drizzle-orm";

/**
 * The name an audit row's actor is shown with (decisions §16): looked up by account id when
 * the row is read, from the student's or lecturer's profile; the name a row of format 1
 * stored, when it has one and the account no longer does; else null (the username names
 * them). A row written now keeps no name, so an erased account leaves none behind. SQL over
 * `audit_log`, for drizzle queries (`actorName`) and the command line's own.
 */
export const actorNameSql = `coalesce(
  (SELECT nama_mahasiswa FROM mahasiswa WHERE mahasiswa.Id_User = audit_log.actor_user_id),
  (SELECT nullif(nama_dosen, '') FROM dosen WHERE dosen.Id_User = audit_log.actor_user_id),
  audit_log.actor_name)`;

export const actorName = sql<string | null>`${sql.raw(actorNameSql)}`;
