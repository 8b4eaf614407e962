// The actions an audit row names (decisions: Audit trail): the values of the audit table's
// `action` column, in a file of their own (no drizzle) so that
// the web interface's audit page lists them without the database layer.
export const auditActions = [
  "login",
  "login_failed",
  "view",
  "export",
  "create",
  "update",
  "delete",
  "password",
  "activate",
  "model",
  "accounts_import",
  "privacy",
] as const;
export type AuditAction = (typeof auditActions)[number];
