import { randomBytes } from "node:crypto";
import { renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { and, asc, eq, or, sql } from "drizzle-orm";
import type { DatabaseClient } from "../db";
import { predictionModels, riwayatSkrining } from "../db/schema";
import type { Level } from "../skrining/scoring";
import type { Classification, Classifier, ModelFeatures, ModelType } from "./classifier";
import { documentCategories, stringifyModelDocument, type CategoryValue } from "./format";
import { loadJsonModel, readModelSource, type ModelSource } from "./files";
import { CompiledModel, type RowOutput } from "./predict";
import type { Cell } from "./predict-values";
import { InvalidInput } from "../errors";
import { appendAuditRows, type AuditActor } from "../audit/trail";
import type { WriteQueue } from "../db/write-queue";
import { preparedOnFirstUse } from "../db/prepared";
import { ReadCache, databaseStamp } from "../db/read-cache";

/**
 * Model records (table `prediction_models`) and their files in the data folder's
 * `models/`, and the classifier the questionnaire asks. At most one record per type is
 * active; the database enforces it with a partial unique index, and switching happens in
 * one transaction.
 */

const levels: readonly Level[] = ["Rendah", "Sedang", "Tinggi"];

export class ModelRegistryError extends InvalidInput {}

export type ModelRecord = typeof predictionModels.$inferSelect;

/** Who changes the registry (a command, the admin console): its `model` audit row is written in the change's transaction. */
export interface RegistryAudit {
  actor: AuditActor;
  target: string;
  clientAddress?: string | null;
}

/** A two-output model answers stress in column 0 and motivasi in column 1. */
function outputColumn(type: ModelType, nOutputs: number): number {
  return nOutputs === 1 ? 0 : type === "stress" ? 0 : 1;
}

/** The texts a model can answer in one output column (labels through `label_map`). */
function possibleLabels(model: CompiledModel, column: number): readonly string[] {
  try {
    return model.classLabels(column);
  } catch (error) {
    throw new ModelRegistryError((error as Error).message);
  }
}

/**
 * A plausible answer sheet for the check that a model really predicts: middle answers,
 * typical profile numbers, and the first category the model knows for each text input.
 */
function neutralRow(model: CompiledModel): Cell[] {
  const categories = documentCategories(model.document);
  const typical: Record<string, number> = { IPK: 3, Usia: 20, Angkatan: 2023 };
  return model.inputNames.map((name, index) => {
    const known: CategoryValue | undefined = categories[name]?.[0];
    if (model.inputTypes[index] === "string") return typeof known === "string" ? known : "";
    if (typeof known === "number") return known;
    if (/^S\d+$/.test(name)) return 3;
    if (/^M\d+$/.test(name)) return 4;
    return typical[name] ?? 0;
  });
}

interface AddedModel {
  record: ModelRecord;
  source: ModelSource;
}

/**
 * The records' changes run as jobs of the write queue (IMMEDIATE, with their audit rows):
 * the server's connection must never open a transaction of its own beside the queue's.
 */
export class ModelRegistry {
  constructor(
    private readonly db: DatabaseClient,
    private readonly writes: WriteQueue,
    private readonly dataDir: string,
    private readonly modelsDir: string,
  ) {}

  list(): ModelRecord[] {
    return this.db.select().from(predictionModels).orderBy(asc(predictionModels.id)).all();
  }

  get(id: number): ModelRecord {
    const record = this.db.select().from(predictionModels).where(eq(predictionModels.id, id)).get();
    if (!record) throw new ModelRegistryError(`model ${id} tidak ditemukan`);
    return record;
  }

  /** The `model` row of a change, inside its transaction (the same connection). */
  private audited(audit: RegistryAudit | undefined, detail: string): void {
    if (audit) appendAuditRows(this.db.$client, [{ ...audit, action: "model", detail }]);
  }

  /** A change of the records as one job of the write queue. */
  private change<T>(work: (tx: DatabaseClient) => T): Promise<T> {
    return this.writes.run(() => work(this.db));
  }

  pathOf(record: ModelRecord): string {
    return join(this.dataDir, record.filePath);
  }

  /**
   * Reads the file completely (converting a joblib file), predicts one neutral row, checks
   * that the output for `type` can only be a level, then copies the JSON document into
   * `models/` and records it.
   */
  async add(options: { type: ModelType; file: string; activate?: boolean; audit?: RegistryAudit }): Promise<AddedModel> {
    return this.addSource(readModelSource(options.file), options);
  }

  /** The same for a model file already read (an upload): `source` from `readModelBytes`. */
  async addSource(source: ModelSource, options: { type: ModelType; activate?: boolean; audit?: RegistryAudit }): Promise<AddedModel> {
    const { model, document } = source;
    const column = outputColumn(options.type, model.nOutputs);
    const labels = possibleLabels(model, column);
    const foreign = labels.filter((label) => !(levels as readonly string[]).includes(label));
    if (foreign.length > 0) {
      throw new ModelRegistryError(`keluaran ${options.type} (kolom ${column}) model ini bukan Rendah/Sedang/Tinggi: ${[...new Set(foreign)].join(", ")}`);
    }
    try {
      model.predictRow(neutralRow(model));
    } catch (error) {
      throw new ModelRegistryError(`model gagal memprediksi baris uji: ${(error as Error).message}`);
    }

    const categories = documentCategories(document);
    const name = `${options.type}-${Date.now()}-${randomBytes(4).toString("hex")}.json`;
    const path = join(this.modelsDir, name);
    const temporary = `${path}.tmp`;
    writeFileSync(temporary, stringifyModelDocument(document), { flag: "wx", mode: 0o600 });
    renameSync(temporary, path);
    try {
      const record = await this.change(
        (tx) => {
          if (options.activate) tx.update(predictionModels).set({ isActive: false }).where(and(eq(predictionModels.type, options.type), eq(predictionModels.isActive, true))).run();
          const inserted = tx
            .insert(predictionModels)
            .values({
              type: options.type,
              filePath: relative(this.dataDir, path),
              isActive: options.activate === true,
              thresholds: document.thresholds ?? null,
              algorithm: document.algorithm,
              version: document.version,
              inputFeatures: document.inputs,
              categories: Object.keys(categories).length > 0 ? categories : null,
              metrics: document.metrics ?? null,
              sourceSha256: source.sha256,
            })
            .returning()
            .get();
          this.audited(options.audit, `model ${inserted.id} (${inserted.type}) ditambahkan${inserted.isActive ? " dan diaktifkan" : ""}; sha256 ${source.sha256.slice(0, 12)}`);
          return inserted;
        },
      );
      return { record, source };
    } catch (error) {
      rmSync(path, { force: true });
      throw error;
    }
  }

  /** Loads the model first, so a broken file is never made active. */
  async activate(id: number, audit?: RegistryAudit): Promise<ModelRecord> {
    const record = this.get(id);
    try {
      loadJsonModel(this.pathOf(record));
    } catch (error) {
      throw new ModelRegistryError(`model ${id} tidak dapat dimuat: ${(error as Error).message}`);
    }
    return this.change(
      (tx) => {
        const current = tx.select().from(predictionModels).where(eq(predictionModels.id, id)).get();
        if (!current) throw new ModelRegistryError(`model ${id} tidak ditemukan`);
        tx.update(predictionModels).set({ isActive: false }).where(and(eq(predictionModels.type, current.type), eq(predictionModels.isActive, true))).run();
        this.audited(audit, `model ${id} (${current.type}) diaktifkan`);
        return tx.update(predictionModels).set({ isActive: true }).where(eq(predictionModels.id, id)).returning().get()!;
      },
    );
  }

  deactivate(id: number, audit?: RegistryAudit): Promise<ModelRecord> {
    return this.change(
      (tx) => {
        const record = tx.update(predictionModels).set({ isActive: false }).where(eq(predictionModels.id, id)).returning().get();
        if (!record) throw new ModelRegistryError(`model ${id} tidak ditemukan`);
        this.audited(audit, `model ${id} (${record.type}) dinonaktifkan`);
        return record;
      },
    );
  }

  /**
   * Removes a record and its file. An active model is refused; one that classified
   * screenings is refused unless `force`, and then those screenings keep their levels
   * with the model reference cleared (ON DELETE SET NULL).
   */
  async remove(id: number, options: { force?: boolean; audit?: RegistryAudit } = {}): Promise<{ record: ModelRecord; screenings: number }> {
    const { record, screenings } = await this.change(
      (tx) => {
        const record = tx.select().from(predictionModels).where(eq(predictionModels.id, id)).get();
        if (!record) throw new ModelRegistryError(`model ${id} tidak ditemukan`);
        if (record.isActive) throw new ModelRegistryError(`model ${id} sedang aktif; nonaktifkan dulu (model deactivate ${id})`);
        const screenings = tx
          .select({ count: sql<number>`count(*)` })
          .from(riwayatSkrining)
          .where(or(eq(riwayatSkrining.stressModelId, id), eq(riwayatSkrining.motivasiModelId, id)))
          .get()!.count;
        if (screenings > 0 && !options.force) {
          throw new ModelRegistryError(`model ${id} dipakai oleh ${screenings} skrining; gunakan --force untuk tetap menghapus (rujukan skrining menjadi kosong)`);
        }
        tx.delete(predictionModels).where(eq(predictionModels.id, id)).run();
        this.audited(options.audit, `model ${id} (${record.type}) dihapus${screenings > 0 ? `; ${screenings} skrining tidak lagi merujuknya` : ""}`);
        return { record, screenings };
      },
    );
    rmSync(this.pathOf(record), { force: true });
    return { record, screenings };
  }
}

/** The active record of a type (placeholder `type`), read through the partial unique index. */
export function activeModelQuery(db: DatabaseClient) {
  return (
    db
      .select({ id: predictionModels.id, filePath: predictionModels.filePath, sourceSha256: predictionModels.sourceSha256 })
      .from(predictionModels)
      // A literal 1, not a bound parameter, lets SQLite prove the index's `is_active = 1`.
      .where(and(eq(predictionModels.type, sql.placeholder("type")), sql`${predictionModels.isActive} = 1`))
  );
}

interface CacheEntry {
  id: number;
  /** Size, modification time and inode: a replaced or rewritten file is reloaded. */
  signature: string;
  model?: CompiledModel;
  error?: Error;
}

/** The active record of a type, its file's path made once for the cache's life, not at every classification. */
interface ActiveModel {
  id: number;
  path: string;
  sourceSha256: string;
}

/**
 * The questionnaire's classifier: the active record of each type, its JSON model loaded on
 * first use and cached. The active record is kept in a read cache until a commit may have
 * changed the models' table (a CLI in another process may have switched it), so a switch
 * or a deactivation takes effect at the next submission. The file is stat'ed once per turn of
 * the event loop: the submissions the write queue runs together (one turn) share it, and a
 * removed or replaced file takes effect from the next group. A failure is cached with the
 * file's signature, so a broken file is not re-parsed each time.
 */
export class RegistryClassifier implements Classifier {
  private readonly activeModel;
  private readonly activeModels: ReadCache<ModelType, ActiveModel | null>;
  private readonly cache = new Map<ModelType, CacheEntry>();
  // One file that predicts both outputs is usually active for both types: the second
  // classification of a submission reuses the first one's prediction instead of running
  // the forests again. Keyed by the source file's hash and the very features object.
  private lastPrediction: { source: string; features: ModelFeatures; outputs: readonly RowOutput[] } | null = null;
  // The files' signatures stat'ed this turn (a stat cost as much as the forests' prediction).
  private readonly signaturesThisTurn = new Map<string, string>();

  constructor(
    db: DatabaseClient,
    private readonly dataDir: string,
  ) {
    this.activeModel = preparedOnFirstUse(() => activeModelQuery(db).prepare());
    this.activeModels = new ReadCache(databaseStamp(db.$client), { reads: [predictionModels], maxEntries: 2 });
  }

  classify(type: ModelType, features: ModelFeatures): Classification | null {
    const active = this.activeModels.get(type, () => {
      const record = this.activeModel.get({ type });
      return record ? { id: record.id, path: join(this.dataDir, record.filePath), sourceSha256: record.sourceSha256 } : null;
    });
    if (!active) {
      this.cache.delete(type);
      return null;
    }
    const model = this.modelFor(type, active.id, active.path);
    const reusable = this.lastPrediction?.source === active.sourceSha256 && this.lastPrediction.features === features;
    const outputs = reusable ? this.lastPrediction!.outputs : model.predictOutputs(model.rowFromFeatures(features));
    this.lastPrediction = { source: active.sourceSha256, features, outputs };
    const column = outputColumn(type, model.nOutputs);
    const output = outputs[column]!;
    const label = output.text;
    if (!(levels as readonly string[]).includes(label)) throw new Error(`model ${active.id} menjawab ${JSON.stringify(label)}, bukan tingkat yang dikenal`);
    return { level: label as Level, modelId: active.id, probability: model.answerProbability(column, output) };
  }

  private modelFor(type: ModelType, id: number, path: string): CompiledModel {
    const signature = this.signatureOf(type, id, path);
    const cached = this.cache.get(type);
    if (cached && cached.id === id && cached.signature === signature) {
      if (cached.error) throw cached.error;
      return cached.model!;
    }
    try {
      const model = loadJsonModel(path);
      this.cache.set(type, { id, signature, model });
      return model;
    } catch (error) {
      const failure = new Error(`model ${id} tidak dapat dimuat: ${(error as Error).message}`);
      this.cache.set(type, { id, signature, error: failure });
      throw failure;
    }
  }

  /** Size, modification time and inode of the file, stat'ed at most once per turn. */
  private signatureOf(type: ModelType, id: number, path: string): string {
    const known = this.signaturesThisTurn.get(path);
    if (known !== undefined) return known;
    let signature: string;
    try {
      const stat = statSync(path);
      signature = `${stat.size}:${stat.mtimeMs}:${stat.ino}`;
    } catch (error) {
      this.cache.delete(type);
      throw new Error(`file model ${id} tidak dapat dibaca (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
    if (this.signaturesThisTurn.size === 0) setImmediate(() => this.signaturesThisTurn.clear());
    this.signaturesThisTurn.set(path, signature);
    return signature;
  }
}
