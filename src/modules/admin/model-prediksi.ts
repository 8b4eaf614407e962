import { invalid } from "../../errors";
import type { RouteGuards } from "../../http/guards";
import { pathId } from "../../requests/values";
import { loadJsonModel, readModelBytes } from "../../models/files";
import { ModelRegistryError, type ModelRecord } from "../../models/registry";
import { decodeSpreadsheetText } from "../../spreadsheet-input";
import { t } from "elysia";
import { currentReliability } from "../../db/measures";
import { serializeReliability } from "../../measurement/reliability";
import { ModelValidator, validationTypes } from "../../models/validation";
import { MessageAnswer, ModelAdded, ModelItem, ModelTry, ValidationAnswer } from "./model";
import { adminController, adminOnly, assertConfirmed, consoleSource, formText, uploadedFile, type AdminDependencies } from "./base";

export const modelMessages = {
  noFile: "Pilih file model (.joblib atau .json).",
  noSample: "Pilih file CSV contoh.",
  badType: "Jenis model harus stress atau motivasi.",
  added: (record: ModelRecord) => `Model ${record.id} (${record.type}) ditambahkan${record.isActive ? " dan diaktifkan" : ""}.`,
  activated: (record: ModelRecord) => `Model ${record.id} (${record.type}) aktif; skrining berikutnya memakainya.`,
  deactivated: (record: ModelRecord) => `Model ${record.id} (${record.type}) tidak aktif; skrining memakai ambang batas.`,
  removed: (record: ModelRecord, screenings: number) => `Model ${record.id} (${record.type}) dihapus${screenings > 0 ? `; ${screenings} skrining tidak lagi merujuknya` : ""}.`,
} as const;

/** At most this many predicted rows are shown on the page; the whole result is in its CSV. */
const shownRows = 200;

/** The record as `model list --json` prints it. */
export function serializeModel(record: ModelRecord) {
  return {
    id: record.id,
    type: record.type,
    file_path: record.filePath,
    is_active: record.isActive,
    algorithm: record.algorithm,
    version: record.version,
    metrics: record.metrics,
    source_sha256: record.sourceSha256,
    created_at: record.createdAt,
  };
}

const modelIdOf = (raw: string) => {
  const id = pathId(raw);
  if (id === null) throw new ModelRegistryError(`model ${raw} tidak ditemukan`);
  return id;
};

const typeOf = (body: unknown) => {
  const type = formText(body, "jenis").trim().toLowerCase();
  if (type !== "stress" && type !== "motivasi") throw invalid(modelMessages.badType);
  return type;
};

/**
 * "Model": the records, a model file uploaded (a joblib bundle converted and checked as
 * `model add` does; nothing is stored when it cannot serve), a registered model tried on a
 * sample CSV (`model predict`), activation (confirmed with the password), deactivation and
 * removal (confirmed). Decisions §20: the local validation (`model validate`) with the
 * stress score's reliability (`stats reliability`); viewing it leaves a `view` row of
 * aggregates, as the faculty's statistics do.
 */
export const modelController = (guards: RouteGuards, dependencies: AdminDependencies) => {
  const { registry } = dependencies;
  return adminController(guards, dependencies, "/model")
    .get("", () => registry.list().map(serializeModel), { access: adminOnly, response: { 200: t.Array(ModelItem) } })
    .get(
      "/validasi",
      ({ principal, query, request, route }) => {
        const type = formText(query, "jenis").trim().toLowerCase();
        if (type !== "" && type !== "stress" && type !== "motivasi") throw invalid(modelMessages.badType);
        const sqlite = dependencies.context.db.$client;
        const report = new ModelValidator(sqlite).validate(type === "" ? validationTypes : [type]);
        dependencies.context.audit.note({ ...consoleSource(dependencies, principal, request, route), action: "view", detail: `validasi model ${type || "stress dan motivasi"}` }, []);
        return { ...report, reliabilitas: serializeReliability(currentReliability(sqlite)) };
      },
      { access: adminOnly, response: { 200: ValidationAnswer } },
    )
    .post(
      "",
      async ({ principal, claims, headers, body, request, route, set }) => {
        const file = uploadedFile(body, "berkas", dependencies.context.config.modelLimitBytes);
        if (!file || file.size === 0) throw invalid(modelMessages.noFile);
        const type = typeOf(body);
        const activate = formText(body, "aktifkan") === "ya";
        if (activate) assertConfirmed(dependencies, { principal, claims, headers, request });
        const source = readModelBytes(new Uint8Array(await file.arrayBuffer()), file.name);
        const { record } = await registry.addSource(source, { type, activate, audit: consoleSource(dependencies, principal, request, route) });
        set.status = 201;
        return { message: modelMessages.added(record), model: serializeModel(record) };
      },
      { access: adminOnly, response: { 201: ModelAdded } },
    )
    .post(
      "/coba",
      async ({ body }) => {
        const file = uploadedFile(body, "berkas", dependencies.context.config.rosterLimitBytes);
        if (!file || file.size === 0) throw invalid(modelMessages.noSample);
        const record = registry.get(modelIdOf(formText(body, "model").trim()));
        // The CSV reader is loaded when a sample comes, not with the server (as `model predict` does).
        const [{ parse }, { predictCsv }] = await Promise.all([import("csv-parse/sync"), import("../../models/batch")]);
        const model = loadJsonModel(registry.pathOf(record));
        const csv = predictCsv(model, decodeSpreadsheetText(new Uint8Array(await file.arrayBuffer())), { type: model.nOutputs === 1 ? record.type : undefined });
        const [header = [], ...rows] = parse(csv, { bom: true }) as string[][];
        return { kolom: header, baris: rows.slice(0, shownRows), jumlah: rows.length, csv };
      },
      { access: adminOnly, response: { 200: ModelTry } },
    )
    .post(
      "/:id/aktifkan",
      async ({ principal, claims, headers, params, request, route }) => {
        assertConfirmed(dependencies, { principal, claims, headers, request });
        const record = await registry.activate(modelIdOf(params.id), consoleSource(dependencies, principal, request, route));
        return { message: modelMessages.activated(record) };
      },
      { access: adminOnly, response: { 200: MessageAnswer } },
    )
    .post(
      "/:id/nonaktifkan",
      async ({ principal, params, request, route }) => {
        const record = await registry.deactivate(modelIdOf(params.id), consoleSource(dependencies, principal, request, route));
        return { message: modelMessages.deactivated(record) };
      },
      { access: adminOnly, response: { 200: MessageAnswer } },
    )
    .delete(
      "/:id",
      async ({ principal, claims, headers, params, query, request, route }) => {
        assertConfirmed(dependencies, { principal, claims, headers, request });
        const { record, screenings } = await registry.remove(modelIdOf(params.id), { force: query.paksa === "ya", audit: consoleSource(dependencies, principal, request, route) });
        return { message: modelMessages.removed(record, screenings) };
      },
      { access: adminOnly, response: { 200: MessageAnswer } },
    );
};
