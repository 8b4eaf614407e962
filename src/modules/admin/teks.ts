import { replaceText, textSubjects } from "../../konten/texts";
import { ServiceError } from "../../errors";
import type { RouteGuards } from "../../http/guards";
import type { JsonObject } from "../../requests/values";
import { SafetySaved } from "../keselamatan/model";
import { HelpSaved, NoticeSaved, TextsAnswer } from "./model";
import { adminController, adminOnly, consoleSource, type AdminDependencies } from "./base";

export const textMessages = {
  help: "Teks bantuan dipasang; mahasiswa melihatnya mulai sekarang.",
  noticeSameVersion: (version: string) =>
    `Pemberitahuan privasi versi ${version} dipasang. Versinya sama dengan sebelumnya: mahasiswa yang sudah menyetujuinya tidak diminta menyetujui lagi.`,
  noticeNewVersion: (version: string, previous: string) =>
    `Pemberitahuan privasi versi ${version} dipasang (sebelumnya ${previous}). Setiap mahasiswa diminta menyetujuinya saat masuk berikutnya.`,
} as const;

/** A refusal of the validator with every problem as a line of the answer (`masalah`), as the command prints them. */
async function replacing<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ServiceError && error.code === "invalid" && error.details.lines) throw new ServiceError("invalid", error.message, { body: { masalah: error.details.lines } });
    throw error;
  }
}

/**
 * "Teks": the help contact and the privacy notice, as `contact import` and `notice import`
 * replace them (validated first, every problem listed, nothing changed on any); a new
 * notice version is asked for again at each student's next sign-in. The safety question
 * (decisions §20), as `safety on` and `safety off` set it.
 */
export const teksController = (guards: RouteGuards, dependencies: AdminDependencies) => {
  const { content, safety } = dependencies;
  const { writes, db } = dependencies.context;
  return adminController(guards, dependencies, "/teks")
    .get("", () => ({ bantuan: content.help.current(), pemberitahuan: content.privacyNotice.current(), keselamatan: safety.current() }), {
      access: adminOnly,
      response: { 200: TextsAnswer },
    })
    .put(
      "/keselamatan",
      ({ principal, body, request, route }) => {
        const { aktif, nama_kontak, telepon_kontak } = (body ?? {}) as JsonObject;
        return safety.set(aktif, nama_kontak, telepon_kontak, consoleSource(dependencies, principal, request, route));
      },
      { access: adminOnly, response: { 200: SafetySaved } },
    )
    .put(
      "/bantuan",
      ({ principal, body, request, route }) =>
        replacing(async () => {
          const { stored } = await replaceText({ file: content.help, subject: textSubjects.help, value: body, source: consoleSource(dependencies, principal, request, route), writes, sqlite: db.$client });
          return { message: textMessages.help, bantuan: stored };
        }),
      { access: adminOnly, response: { 200: HelpSaved } },
    )
    .put(
      "/pemberitahuan",
      ({ principal, body, request, route }) =>
        replacing(async () => {
          const { stored, previous } = await replaceText({
            file: content.privacyNotice,
            subject: textSubjects.privacyNotice,
            value: body,
            source: consoleSource(dependencies, principal, request, route),
            writes,
            sqlite: db.$client,
          });
          const message = stored.version === previous.version ? textMessages.noticeSameVersion(stored.version) : textMessages.noticeNewVersion(stored.version, previous.version);
          return { message, pemberitahuan: stored, versi_baru: stored.version !== previous.version };
        }),
      { access: adminOnly, response: { 200: NoticeSaved } },
    );
};
