// Every table of the database, by feature area in src/db/tables/. drizzle-kit reads this
// file (drizzle.config.ts) for the migrations, and the code imports the tables from here.
//
// Column names follow the interface's field names so that the database and the wire
// format read alike; the TypeScript property names are English.

export * from "./tables/people";
export * from "./tables/screening";
export * from "./tables/student-records";
export * from "./tables/audit";
export * from "./tables/tindak-lanjut";
/** What an audit row records (decisions: Privacy and audit). */
export { auditActions, type AuditAction } from "./tables/audit-actions";
