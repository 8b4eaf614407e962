import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { parseModelJson, type ModelDocument } from "./format";
import { CompiledModel } from "./predict";
import { convertSklearnModel } from "./sklearn/convert";
import { readJoblib } from "./sklearn/joblib";
import { InvalidInput } from "../errors";

/** A model file of either supported kind, read completely and converted to the JSON format. */
export interface ModelSource {
  document: ModelDocument;
  model: CompiledModel;
  sha256: string;
  kind: "json" | "joblib";
}

class ModelFileError extends InvalidInput {}

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

export function readModelSource(path: string): ModelSource {
  return readModelBytes(readBytes(path), basename(path));
}

/** A model file's bytes (an upload), by the name it came with. */
export function readModelBytes(bytes: Uint8Array, fileName: string): ModelSource {
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const kind = looksLikeJson(bytes) ? "json" : "joblib";
  const document = kind === "json" ? parseModelJson(new TextDecoder().decode(bytes)) : convertSklearnModel(readJoblib(bytes), { fileName, sha256 });
  return { document, model: new CompiledModel(document), sha256, kind };
}

/** What the server loads: the project's JSON format only, never a pickle. */
export function loadJsonModel(path: string): CompiledModel {
  const bytes = readBytes(path);
  return new CompiledModel(parseModelJson(new TextDecoder().decode(bytes)));
}
