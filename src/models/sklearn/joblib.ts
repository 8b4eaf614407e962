import { gunzipSync, inflateSync } from "node:zlib";
import { DType, NdArray, checkShape, ndarrayType } from "./numpy";
import { Unpickler, oldProtocolMessage } from "./pickle";
import { ByteReader, PickleError, describe, type Buildable, type PickleGlobal, type PickleStream } from "./pickle-values";
import { modelGlobal, supportedEstimators } from "./whitelist";

/**
 * joblib files (and plain pickles, which are the same without array wrappers): a pickle in which every numpy array is replaced by a `NumpyArrayWrapper`
 * record whose BUILD is followed by the array's raw bytes (newer joblib writes one byte of
 * padding length and the padding first, so the data is aligned). Object arrays are written
 * as a nested protocol-2 pickle at the same place. The whole stream may be compressed.
 */

/** joblib's `NumpyArrayWrapper`: BUILD reads the array that follows it in the stream. */
class ArrayWrapper implements Buildable {
  build(state: unknown, stream: PickleStream): unknown {
    if (!(state instanceof Map)) throw new PickleError("state NumpyArrayWrapper tidak valid");
    const dtype = state.get("dtype");
    if (!(dtype instanceof DType)) throw new PickleError("NumpyArrayWrapper tanpa dtype");
    if (state.get("subclass") !== ndarrayType) throw new PickleError(`subkelas array tidak didukung: ${describe(state.get("subclass"))}`);
    const shape = checkShape(state.get("shape"));
    const order = state.get("order");
    if (order !== "C" && order !== "F") throw new PickleError(`urutan array tidak dikenal: ${String(order)}`);

    if (dtype.kind === "O") {
      const array = stream.loadNested();
      if (!(array instanceof NdArray) || array.size !== shape.reduce((total, size) => total * size, 1)) {
        throw new PickleError("array objek dalam file joblib tidak cocok dengan bentuknya");
      }
      return array;
    }
    const reader = stream.reader;
    const alignment = state.get("numpy_array_alignment_bytes");
    if (alignment !== undefined && alignment !== null) {
      if (typeof alignment !== "number" || alignment < 1 || alignment > 255) throw new PickleError("perataan array joblib tidak valid");
      const padding = reader.byte();
      if (padding > alignment) throw new PickleError(`padding array ${padding} byte melebihi perataan ${alignment}`);
      reader.skip(padding);
    }
    const array = new NdArray(dtype, shape);
    return array.fill(reader.take(array.size * dtype.itemsize), order === "F");
  }
}

/** Why a class outside the whitelist is refused; an estimator of scikit-learn is told what is supported. */
function refusal(qualifiedName: string): string {
  const message = `kelas tidak diizinkan dalam file model: ${qualifiedName}`;
  if (!qualifiedName.startsWith("sklearn.")) return message;
  // A nearest-neighbours model keeps every training row: the students' answers themselves.
  const why = /neighbors/.test(qualifiedName) ? " (model ini menyimpan seluruh baris data latih, yaitu data pribadi)" : "";
  return `${message}${why}. Estimator yang didukung: ${supportedEstimators}`;
}

/** The whitelist and joblib's array wrapper: every other global is refused with its full name. */
function joblibPolicy(module: string, name: string): PickleGlobal {
  const qualifiedName = `${module}.${name}`;
  if (qualifiedName === "joblib.numpy_pickle.NumpyArrayWrapper") return { qualifiedName, construct: () => new ArrayWrapper() };
  const known = modelGlobal(module, name);
  if (known) return known;
  throw new PickleError(refusal(qualifiedName));
}

/** A zlib or gzip file may not expand beyond this (a small file can hold gigabytes of zeros). */
export const decompressedLimit = 512 * 1024 * 1024;

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((byte, index) => bytes[index] === byte);
}

/** joblib's own compressors, recognised by their magic bytes as joblib does. */
const otherCompressors: [string, number[]][] = [
  ["bz2", [0x42, 0x5a, 0x68]],
  ["xz", [0xfd, 0x37, 0x7a, 0x58, 0x5a]],
  ["lzma", [0x5d, 0x00, 0x00]],
  ["lz4", [0x04, 0x22, 0x4d, 0x18]],
];

/** The pickle bytes of a joblib file, decompressed when joblib compressed it with zlib or gzip. */
function joblibPickleBytes(bytes: Uint8Array, limit: number): Uint8Array {
  if (bytes.length === 0) throw new PickleError("file kosong");
  if (bytes[0] === 0x80) return bytes;
  const inflate = (method: string, run: () => Uint8Array) => {
    try {
      return run();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") {
        throw new PickleError(`file model terlalu besar: isi ${method} melebihi ${(limit / 1024 / 1024).toLocaleString("id-ID")} MB setelah didekompresi`);
      }
      throw new PickleError(`data ${method} rusak atau terpotong: ${(error as Error).message}`);
    }
  };
  if (bytes[0] === 0x78) return inflate("zlib", () => inflateSync(bytes, { maxOutputLength: limit }));
  if (startsWith(bytes, [0x1f, 0x8b])) return inflate("gzip", () => gunzipSync(bytes, { maxOutputLength: limit }));
  for (const [name, prefix] of otherCompressors) {
    if (startsWith(bytes, prefix)) throw new PickleError(`kompresi ${name} tidak didukung; simpan ulang dengan joblib.dump(..., compress=('zlib', 3)) atau tanpa kompresi`);
  }
  if (startsWith(bytes, [0x5a, 0x46])) throw new PickleError("format joblib lama (ZF) tidak didukung");
  const oldProtocol = oldProtocolMessage(bytes);
  if (oldProtocol) throw new PickleError(oldProtocol);
  throw new PickleError("bukan file joblib/pickle");
}

/** Reads a whole joblib file into inert values; trailing bytes mean a damaged file. */
export function readJoblib(bytes: Uint8Array, limit = decompressedLimit): unknown {
  const reader = new ByteReader(joblibPickleBytes(bytes, limit));
  const value = new Unpickler(reader, joblibPolicy).load();
  if (reader.remaining !== 0) throw new PickleError(`file rusak: ${reader.remaining} byte tersisa setelah STOP`);
  return value;
}
