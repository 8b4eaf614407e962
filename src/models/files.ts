import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { parseModelJson, type ModelDocument } from "./format";
import { CompiledModel } from "./predict";
import type * as Conversion from "./sklearn/convert";
import type * as Joblib from "./sklearn/joblib";
import { InvalidInput } from "../errors";

/** A model file of either supported kind, read completely and converted to the JSON format. */
export interface ModelSource {
  document: ModelDocument;
  model: CompiledModel;
  sha256: string;
  kind: "json" | "joblib";
}

class ModelFileError extends InvalidInput {}

/** What an admin can do when a model file is refused, by the kind it was read as. */
const nextStep = {
  json: "Buat ulang file dalam format model JSON skrining (docs/model-format.md), atau unggah file .joblib dari scikit-learn.",
  joblib:
    "Unggah model yang disimpan dengan joblib.dump dari scikit-learn seperti di docs/models.md (bagian \"How to save a model for skrining\"), atau file .json dalam format model skrining.",
} as const;

function readBytes(path: string): Uint8Array {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new ModelFileError(`tidak dapat membaca ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/** JSON documents start with `{` (after optional whitespace or a BOM); pickles never do. */
function looksLikeJson(bytes: Uint8Array): boolean {
  for (const byte of bytes) {
    if (byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d || byte === 0xef || byte === 0xbb || byte === 0xbf) continue;
    return byte === 0x7b;
  }
  return false;
}

/**
 * A joblib file converted to the JSON format. The pickle reader and the converters are
 * loaded here, when a command adds or runs such a file, not with the module: the server
 * only ever loads JSON models. Synchronously (`require`), as `model add` is.
 */
function fromJoblib(bytes: Uint8Array, origin: { fileName: string; sha256: string }): ModelDocument {
  const { readJoblib } = require("./sklearn/joblib") as typeof Joblib;
  const { convertSklearnModel } = require("./sklearn/convert") as typeof Conversion;
  return convertSklearnModel(readJoblib(bytes), origin);
}

export function readModelSource(path: string): ModelSource {
  return readModelBytes(readBytes(path), basename(path));
}

/** A model file's bytes (an upload), by the name it came with. */
export function readModelBytes(bytes: Uint8Array, fileName: string): ModelSource {
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const kind = looksLikeJson(bytes) ? "json" : "joblib";
  try {
    const document = kind === "json" ? parseModelJson(new TextDecoder().decode(bytes)) : fromJoblib(bytes, { fileName, sha256 });
    return { document, model: new CompiledModel(document), sha256, kind };
  } catch (error) {
    // What was wrong, then what to do about it (issue 44, item 13): the reader's words alone left an admin stuck.
    if (error instanceof InvalidInput) throw new ModelFileError(`${fileName} tidak dapat dipakai: ${error.message}. ${nextStep[kind]}`, error.details);
    throw error;
  }
}

/** What the server loads: the project's JSON format only, never a pickle. */
export function loadJsonModel(path: string): CompiledModel {
  const bytes = readBytes(path);
  return new CompiledModel(parseModelJson(new TextDecoder().decode(bytes)));
}
