import { readAccountState, readRole, searchAccounts } from "../../accounts/search";
import { accountColumns, createsAdmin, type AccountColumn } from "../../accounts/validation";
import { InvalidInput, ServiceError, invalid } from "../../errors";
import { readPagination } from "../../requests/pagination";
import type { RouteGuards } from "../../http/guards";
import type { JsonObject } from "../../requests/values";
import { AccountAdded, AccountPage, ImportAnswer, ImportPreview, MessageAnswer, PasswordReset } from "./model";
import { adminController, adminOnly, assertConfirmed, consoleSource, formText, uploadedFile, type AdminDependencies } from "./base";

export const accountMessages = {
  noFile: "Pilih file CSV daftar akun.",
  added: (username: string, active: boolean) =>
    active ? `Akun ${username} dibuat dan sudah aktif.` : `Akun ${username} dibuat, belum aktif: pemiliknya mengaktifkan sendiri dengan password awal.`,
  activated: (username: string, changed: boolean) => (changed ? `Akun ${username} diaktifkan.` : `Akun ${username} sudah aktif.`),
  deactivated: (username: string, changed: boolean) =>
    changed
      ? `Akun ${username} dinonaktifkan; semua sesinya berakhir. Login dan aktivasi ditolak sampai akun diaktifkan lagi.`
      : `Akun ${username} sudah dinonaktifkan; semua sesinya berakhir.`,
  notYourself: "Akun Anda sendiri tidak dapat dinonaktifkan dari konsol.",
  notYourOwnPassword: (username: string) =>
    `Password sekali pakai tidak dapat dibuat untuk akun Anda sendiri: semua sesi Anda akan berakhir dan password lama tidak berlaku lagi. Ganti password Anda dengan skrining accounts passwd ${username} di PC ini.`,
  reset: (username: string) => `Password sekali pakai untuk ${username} dibuat; semua sesinya berakhir. Pemiliknya harus menggantinya saat masuk berikutnya.`,
} as const;

/** The roster file of a form, read as the import reads it (decisions §12); a clear refusal when it is missing or no text. */
async function rosterOf(body: unknown, limitBytes: number) {
  const file = uploadedFile(body, "berkas", limitBytes);
  if (!file || file.size === 0) throw invalid(accountMessages.noFile);
  // The CSV reader is loaded when a roster comes, not with the server (as the command does).
  const { readRoster } = await import("../../accounts/import");
  return readRoster(new Uint8Array(await file.arrayBuffer()));
}

/** The checkbox of a form (`ya`, `true`, `on`, `1`). */
const ticked = (body: unknown, field: string) => ["ya", "true", "on", "1"].includes(formText(body, field).trim().toLowerCase());

/** The cells of the "Tambah akun" form, by the roster's column names (the same rules as a roster row). */
function cellsOf(body: JsonObject): Partial<Record<AccountColumn, string>> {
  const cells: Partial<Record<AccountColumn, string>> = {};
  for (const column of accountColumns) {
    const value = body[column];
    if (typeof value === "string" && value !== "") cells[column] = value;
    if (typeof value === "boolean") cells[column] = value ? "true" : "false";
  }
  return cells;
}

/**
 * "Akun": the accounts by role, state and a search text; one new account; a roster's
 * preview and import; a one-time password; activation and deactivation. The same service
 * functions as `skrining accounts ...`, with the same audit rows.
 */
export const akunController = (guards: RouteGuards, dependencies: AdminDependencies) => {
  const { accounts } = dependencies.context;
  return adminController(guards, dependencies, "/akun")
    .get(
      "",
      ({ query }) => {
        const { page, perPage } = readPagination(query, 25);
        return searchAccounts(dependencies.context.db, { q: query.q, role: readRole(query.peran), state: readAccountState(query.status), page, perPage });
      },
      { access: adminOnly, response: { 200: AccountPage } },
    )
    .post(
      "",
      async ({ principal, claims, headers, body, request, route, set }) => {
        const cells = cellsOf(body as JsonObject);
        // Decisions §21: a new admin is a way in.
        if (createsAdmin(cells)) assertConfirmed(dependencies, { principal, claims, headers, request });
        const account = await accounts.addOne(cells, consoleSource(dependencies, principal, request, route));
        set.status = 201;
        return { message: accountMessages.added(account.username, account.activated === true), username: account.username };
      },
      { access: adminOnly, response: { 201: AccountAdded } },
    )
    .post("/impor/pratinjau", async ({ body }) => accounts.previewImport(await rosterOf(body, dependencies.context.config.rosterLimitBytes), ticked(body, "reset_password")), { access: adminOnly, response: { 200: ImportPreview } })
    .post(
      "/impor",
      async ({ principal, claims, headers, body, request, route }) => {
        const roster = await rosterOf(body, dependencies.context.config.rosterLimitBytes);
        const resetPasswords = ticked(body, "reset_password");
        // Decisions §21: passwords reset, or an admin made, are ways in.
        if (accounts.importGivesAccess(roster, resetPasswords)) assertConfirmed(dependencies, { principal, claims, headers, request });
        try {
          const counts = await accounts.importRoster(roster, { resetPasswords, source: consoleSource(dependencies, principal, request, route) });
          // A backup of the day the roster came (issue 44): the schedule's may be a day away.
          dependencies.backups?.noticeChanges();
          const minors = accounts.minorsAmong(roster.accounts.flatMap((row) => (row.nim === undefined ? [] : [row.nim])));
          return { counts, di_bawah_18: minors };
        } catch (error) {
          // The bad rows go to the page as they go to a terminal: one line each.
          if (error instanceof InvalidInput && error.details.lines) throw new ServiceError("invalid", error.message, { body: { baris: error.details.lines } });
          throw error;
        }
      },
      { access: adminOnly, response: { 200: ImportAnswer } },
    )
    .post(
      "/:username/reset-password",
      async ({ principal, claims, headers, params, request, route }) => {
        // Issue 44, item 5: one's own reset ended the admin's sessions before its password was shown.
        if (params.username === principal.username) throw invalid(accountMessages.notYourOwnPassword(principal.username));
        assertConfirmed(dependencies, { principal, claims, headers, request });
        const password = await accounts.resetPassword(params.username, consoleSource(dependencies, principal, request, route));
        return { message: accountMessages.reset(params.username), password };
      },
      { access: adminOnly, response: { 200: PasswordReset } },
    )
    .post(
      "/:username/aktifkan",
      async ({ principal, claims, headers, params, request, route }) => {
        // Decisions §21: activation and reactivation let an account in.
        assertConfirmed(dependencies, { principal, claims, headers, request });
        const changed = await accounts.setActivated(params.username, true, consoleSource(dependencies, principal, request, route));
        return { message: accountMessages.activated(params.username, changed) };
      },
      { access: adminOnly, response: { 200: MessageAnswer } },
    )
    .post(
      "/:username/nonaktifkan",
      async ({ principal, claims, headers, params, request, route }) => {
        // The console stays usable: an admin's own account is deactivated from the command line, if at all.
        if (params.username === principal.username) throw invalid(accountMessages.notYourself);
        assertConfirmed(dependencies, { principal, claims, headers, request });
        const changed = await accounts.setActivated(params.username, false, consoleSource(dependencies, principal, request, route));
        return { message: accountMessages.deactivated(params.username, changed) };
      },
      { access: adminOnly, response: { 200: MessageAnswer } },
    );
};
