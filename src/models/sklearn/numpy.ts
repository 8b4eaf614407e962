import { PickleError, describe, type Buildable, type PickleGlobal, type PyTuple } from "./pickle-values";

/**
 * The numpy pieces a scikit-learn pickle holds: dtypes, arrays (numbers, text, Python
 * objects, and the structured records of tree nodes) and scalars. Only the data is kept.
 */

type Kind = "f" | "i" | "u" | "b" | "O" | "U" | "S" | "V";

interface DTypeField {
  name: string;
  dtype: DType;
  offset: number;
}

export class DType implements Buildable {
  readonly kind: Kind;
  itemsize: number;
  littleEndian = true;
  fields: DTypeField[] | null = null;

  constructor(readonly code: string) {
    const match = /^([fiubOUSV])(\d+)$/.exec(code);
    if (!match) throw new PickleError(`dtype numpy ${code} tidak didukung`);
    this.kind = match[1] as Kind;
    const size = Number(match[2]);
    // A `U` code counts characters; each is stored as 4 bytes (UTF-32).
    this.itemsize = this.kind === "U" ? size * 4 : size;
    const numericSizes: Partial<Record<Kind, number[]>> = { f: [4, 8], i: [1, 2, 4, 8], u: [1, 2, 4, 8], b: [1], O: [4, 8] };
    const allowed = numericSizes[this.kind];
    if (allowed && !allowed.includes(size)) throw new PickleError(`dtype numpy ${code} tidak didukung`);
  }

  get numeric(): boolean {
    return this.kind === "f" || this.kind === "i" || this.kind === "u" || this.kind === "b";
  }

  /** `dtype.__setstate__`: (version, byte order, subarray, names, fields, itemsize, alignment, flags[, metadata]). */
  build(state: unknown): unknown {
    if (!Array.isArray(state) || state.length < 8 || (state[0] !== 3 && state[0] !== 4)) throw new PickleError("state dtype numpy tidak dikenal");
    const [, order, subarray, names, fields, itemsize] = state;
    if (order === ">") this.littleEndian = false;
    else if (order !== "<" && order !== "|" && order !== "=") throw new PickleError(`urutan byte dtype tidak dikenal: ${String(order)}`);
    if (subarray !== null) throw new PickleError("dtype numpy dengan sub-array tidak didukung");
    if (typeof itemsize === "number" && itemsize > 0) this.itemsize = itemsize;
    if (names !== null) {
      if (this.kind !== "V" || !Array.isArray(names) || !(fields instanceof Map)) throw new PickleError("dtype terstruktur tidak valid");
      this.fields = names.map((name) => {
        const field = fields.get(name);
        if (typeof name !== "string" || !Array.isArray(field) || !(field[0] instanceof DType) || typeof field[1] !== "number") {
          throw new PickleError(`kolom dtype terstruktur tidak valid: ${String(name)}`);
        }
        const dtype = field[0];
        if (!dtype.numeric || field[1] < 0 || field[1] + dtype.itemsize > this.itemsize) throw new PickleError(`kolom dtype terstruktur tidak didukung: ${name}`);
        return { name, dtype, offset: field[1] };
      });
    }
    return this;
  }
}

function product(shape: readonly number[]): number {
  return shape.reduce((total, size) => total * size, 1);
}

function readNumber(view: DataView, offset: number, dtype: DType): number {
  const little = dtype.littleEndian;
  switch (dtype.kind) {
    case "f":
      return dtype.itemsize === 8 ? view.getFloat64(offset, little) : view.getFloat32(offset, little);
    case "b":
      return view.getUint8(offset) === 0 ? 0 : 1;
    case "i":
    case "u": {
      const signed = dtype.kind === "i";
      switch (dtype.itemsize) {
        case 1:
          return signed ? view.getInt8(offset) : view.getUint8(offset);
        case 2:
          return signed ? view.getInt16(offset, little) : view.getUint16(offset, little);
        case 4:
          return signed ? view.getInt32(offset, little) : view.getUint32(offset, little);
        default: {
          const big = signed ? view.getBigInt64(offset, little) : view.getBigUint64(offset, little);
          const value = Number(big);
          if (!Number.isSafeInteger(value)) throw new PickleError(`bilangan bulat terlalu besar dalam array: ${big}`);
          return value;
        }
      }
    }
    default:
      throw new PickleError(`dtype ${dtype.code} bukan angka`);
  }
}

function readText(bytes: Uint8Array, offset: number, dtype: DType): string {
  let text = "";
  if (dtype.kind === "U") {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let index = 0; index < dtype.itemsize; index += 4) {
      const codePoint = view.getUint32(offset + index, dtype.littleEndian);
      if (codePoint > 0x10ffff) throw new PickleError("teks numpy tidak valid");
      text += String.fromCodePoint(codePoint);
    }
  } else {
    for (let index = 0; index < dtype.itemsize; index++) text += String.fromCharCode(bytes[offset + index]!);
  }
  // numpy pads fixed-width text with NULs and strips them when reading.
  return text.replace(/\0+$/, "");
}

/** The C-order position of each element given in Fortran order. */
function fortranToC<T>(values: T[] | Float64Array, shape: readonly number[]): void {
  if (shape.length < 2) return;
  const copy = Array.from(values as ArrayLike<T>);
  const count = copy.length;
  const index = new Array<number>(shape.length).fill(0);
  for (let fortran = 0; fortran < count; fortran++) {
    let c = 0;
    for (let axis = 0; axis < shape.length; axis++) c = c * shape[axis]! + index[axis]!;
    (values as T[])[c] = copy[fortran]!;
    for (let axis = 0; axis < shape.length; axis++) {
      if (++index[axis]! < shape[axis]!) break;
      index[axis] = 0;
    }
  }
}

/** An array's data in C order: numbers, Python objects or text, or structured columns. */
export class NdArray implements Buildable {
  dtype: DType;
  shape: number[];
  numbers: Float64Array | null = null;
  items: unknown[] | null = null;
  fields: Map<string, Float64Array> | null = null;

  constructor(dtype: DType, shape: number[]) {
    this.dtype = dtype;
    this.shape = shape;
  }

  get size(): number {
    return product(this.shape);
  }

  /** Decodes raw element bytes (C order unless `fortran`). */
  fill(bytes: Uint8Array, fortran: boolean): this {
    const { dtype } = this;
    const count = this.size;
    if (dtype.kind === "O") throw new PickleError("array objek tidak punya data mentah");
    if (bytes.length !== count * dtype.itemsize) throw new PickleError(`ukuran data array ${bytes.length} byte, seharusnya ${count * dtype.itemsize}`);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (dtype.fields) {
      this.fields = new Map();
      for (const field of dtype.fields) {
        const column = new Float64Array(count);
        for (let index = 0; index < count; index++) column[index] = readNumber(view, index * dtype.itemsize + field.offset, field.dtype);
        if (fortran) fortranToC(column, this.shape);
        this.fields.set(field.name, column);
      }
    } else if (dtype.numeric) {
      const numbers = new Float64Array(count);
      for (let index = 0; index < count; index++) numbers[index] = readNumber(view, index * dtype.itemsize, dtype);
      if (fortran) fortranToC(numbers, this.shape);
      this.numbers = numbers;
    } else if (dtype.kind === "U" || dtype.kind === "S") {
      const items: unknown[] = [];
      for (let index = 0; index < count; index++) items.push(readText(bytes, index * dtype.itemsize, dtype));
      if (fortran) fortranToC(items, this.shape);
      this.items = items;
    } else {
      throw new PickleError(`dtype ${dtype.code} tanpa kolom tidak didukung`);
    }
    return this;
  }

  /** `ndarray.__setstate__`: (version, shape, dtype, is_fortran, raw bytes or object list). */
  build(state: unknown): unknown {
    if (!Array.isArray(state) || state.length !== 5) throw new PickleError("state ndarray tidak dikenal");
    const [, shape, dtype, fortran, raw] = state;
    if (!(dtype instanceof DType)) throw new PickleError("state ndarray tanpa dtype");
    this.dtype = dtype;
    this.shape = checkShape(shape);
    if (dtype.kind === "O") {
      if (!Array.isArray(raw) || raw.length !== this.size) throw new PickleError("isi array objek tidak cocok dengan bentuknya");
      this.items = [...raw];
      if (fortran === true) fortranToC(this.items, this.shape);
    } else {
      if (!(raw instanceof Uint8Array)) throw new PickleError(`isi ndarray berupa ${describe(raw)}`);
      this.fill(raw, fortran === true);
    }
    return this;
  }

  /** The elements as JavaScript values (numbers, strings or Python objects). */
  toList(): unknown[] {
    if (this.numbers) return Array.from(this.numbers);
    if (this.items) return this.items;
    throw new PickleError("array terstruktur tidak dapat dibaca sebagai daftar");
  }
}

export function checkShape(shape: unknown): number[] {
  if (!Array.isArray(shape) || !shape.every((size) => Number.isSafeInteger(size) && (size as number) >= 0)) throw new PickleError("bentuk array tidak valid");
  if (product(shape as number[]) > 2 ** 31) throw new PickleError("array terlalu besar");
  return [...(shape as number[])];
}

/** `numpy.core.multiarray.scalar(dtype, raw)`: a numpy scalar such as `np.float64(3.5)`. */
function scalar(args: PyTuple): unknown {
  const [dtype, raw] = args;
  if (!(dtype instanceof DType) || args.length !== 2) throw new PickleError("argumen scalar numpy tidak valid");
  if (dtype.kind === "O") return raw;
  if (!(raw instanceof Uint8Array)) throw new PickleError("data scalar numpy bukan bytes");
  const array = new NdArray(dtype, []).fill(raw, false);
  return array.toList()[0];
}

/** `numpy.core.multiarray._reconstruct(ndarray, (0,), b'b')`: an empty array that BUILD fills. */
function reconstruct(args: PyTuple): unknown {
  const [subtype] = args;
  if (subtype !== ndarrayType) throw new PickleError(`subkelas array tidak didukung: ${describe(subtype)}`);
  return new NdArray(new DType("b1"), [0]);
}

/**
 * `numpy.core.numeric._frombuffer(buffer, dtype, shape, order)`: how `pickle.dump` with
 * protocol 5 writes an array, its bytes in the stream itself (no out-of-band buffers).
 */
function fromBuffer(args: PyTuple): unknown {
  const [buffer, dtype, shape, order] = args;
  if (args.length !== 4 || !(buffer instanceof Uint8Array) || !(dtype instanceof DType)) throw new PickleError("argumen _frombuffer numpy tidak valid");
  if (order !== "C" && order !== "F") throw new PickleError(`urutan array tidak dikenal: ${String(order)}`);
  if (dtype.kind === "O") throw new PickleError("array objek tidak punya data mentah");
  return new NdArray(dtype, checkShape(shape)).fill(buffer, order === "F");
}

/** A class that may be named (as a value, e.g. `dtype=np.float64`) but never called. */
export class PyType implements PickleGlobal {
  constructor(readonly qualifiedName: string) {}
}

export const ndarrayType = new PyType("numpy.ndarray");

const scalarTypes = ["float64", "float32", "int64", "int32", "int8", "uint8", "bool_", "object_", "str_"];

/** The numpy globals a scikit-learn pickle may name, under both module layouts. */
export function numpyGlobal(module: string, name: string): PickleGlobal | undefined {
  const qualifiedName = `${module}.${name}`;
  if (module === "numpy") {
    if (name === "ndarray") return ndarrayType;
    if (name === "dtype") {
      return {
        qualifiedName,
        call: (args) => {
          if (typeof args[0] !== "string") throw new PickleError("argumen dtype numpy tidak valid");
          return new DType(args[0]);
        },
      };
    }
    if (scalarTypes.includes(name)) return new PyType(qualifiedName);
    return undefined;
  }
  if (module === "numpy.core.multiarray" || module === "numpy._core.multiarray") {
    if (name === "_reconstruct") return { qualifiedName, call: reconstruct };
    if (name === "scalar") return { qualifiedName, call: scalar };
  }
  if ((module === "numpy.core.numeric" || module === "numpy._core.numeric") && name === "_frombuffer") return { qualifiedName, call: fromBuffer };
  return undefined;
}
