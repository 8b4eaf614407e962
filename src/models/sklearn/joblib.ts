import { gunzipSync, inflateSync } from "node:zlib";
import { DType, NdArray, checkShape, ndarrayType, numpyGlobal } from "./numpy";
import { Unpickler, oldProtocolMessage } from "./pickle";
import { ByteReader, PickleError, PyObject, describe, type Buildable, type PickleGlobal, type PickleStream } from "./pickle-values";

/**
 * joblib files: a pickle in which every numpy array is replaced by a `NumpyArrayWrapper`
 * record whose BUILD is followed by the array's raw bytes (newer joblib writes one byte of
 * padding length and the padding first, so the data is aligned). Object arrays are written
 * as a nested protocol-2 pickle at the same place. The whole stream may be compressed.
 */

/** The scikit-learn classes (1.2–1.6 module paths) that a supported model is made of. */
const sklearnClasses: Record<string, string> = {
  "sklearn.pipeline.Pipeline": "Pipeline",
  "sklearn.compose._column_transformer.ColumnTransformer": "ColumnTransformer",
  "sklearn.compose._column_transformer._RemainderColsList": "_RemainderColsList",
  "sklearn.preprocessing._data.StandardScaler": "StandardScaler",
  "sklearn.preprocessing._encoders.OrdinalEncoder": "OrdinalEncoder",
  "sklearn.preprocessing._encoders.OneHotEncoder": "OneHotEncoder",
  "sklearn.preprocessing._function_transformer.FunctionTransformer": "FunctionTransformer",
  "sklearn.impute._base.SimpleImputer": "SimpleImputer",
  "sklearn.decomposition._pca.PCA": "PCA",
  "sklearn.ensemble._forest.RandomForestClassifier": "RandomForestClassifier",
  "sklearn.ensemble._forest.ExtraTreesClassifier": "ExtraTreesClassifier",
  "sklearn.tree._classes.DecisionTreeClassifier": "DecisionTreeClassifier",
  "sklearn.tree._classes.ExtraTreeClassifier": "ExtraTreeClassifier",
  "sklearn.tree._tree.Tree": "Tree",
  "sklearn.multioutput.ClassifierChain": "ClassifierChain",
  "sklearn.multioutput.MultiOutputClassifier": "MultiOutputClassifier",
};

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

function sklearnClass(qualifiedName: string, className: string): PickleGlobal {
  const make = (args: readonly unknown[]) => new PyObject(className, args);
  return { qualifiedName, call: make, construct: make };
}

/** The whitelist: every global outside it is refused with its full name. */
function joblibPolicy(module: string, name: string): PickleGlobal {
  const qualifiedName = `${module}.${name}`;
  const numpy = numpyGlobal(module, name);
  if (numpy) return numpy;
  const sklearn = sklearnClasses[qualifiedName];
  if (sklearn) return sklearnClass(qualifiedName, sklearn);
  if (qualifiedName === "joblib.numpy_pickle.NumpyArrayWrapper") return { qualifiedName, construct: () => new ArrayWrapper() };
  if (qualifiedName === "builtins.slice" || qualifiedName === "__builtin__.slice") {
    return { qualifiedName, call: (args) => new PyObject("slice", args) };
  }
  if (qualifiedName === "_codecs.encode") {
    // Protocol 2 writes bytes as `_codecs.encode(text, 'latin1')`.
    return {
      qualifiedName,
      call: ([text, encoding]) => {
        if (typeof text !== "string" || (encoding !== "latin1" && encoding !== "latin-1")) throw new PickleError("_codecs.encode hanya untuk latin1");
        const bytes = new Uint8Array(text.length);
        for (let index = 0; index < text.length; index++) {
          const code = text.charCodeAt(index);
          if (code > 0xff) throw new PickleError("teks latin1 tidak valid");
          bytes[index] = code;
        }
        return bytes;
      },
    };
  }
  throw new PickleError(`kelas tidak diizinkan dalam file model: ${qualifiedName}`);
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
