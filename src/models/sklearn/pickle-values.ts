/**
 * What the restricted pickle interpreter (pickle.ts) works with: the byte reader, the
 * inert stand-ins of Python objects, the interface a policy's globals implement, and the
 * decoding of the stream's numbers and texts.
 */

import { InvalidInput } from "../../errors";

export class PickleError extends InvalidInput {}

/** Python tuples are frozen arrays, lists are ordinary arrays, dicts are Maps. */
export type PyTuple = readonly unknown[];

/** An instance of a whitelisted class: its constructor arguments and its `__dict__`. */
export class PyObject {
  readonly state = new Map<string, unknown>();
  constructor(
    readonly className: string,
    readonly args: readonly unknown[] = [],
  ) {}

  has(key: string): boolean {
    return this.state.has(key);
  }

  get(key: string): unknown {
    if (!this.state.has(key)) throw new PickleError(`${this.className} tidak punya atribut ${key}`);
    return this.state.get(key);
  }
}

/** What a policy hands back for a global: something that REDUCE or NEWOBJ may call. */
export interface PickleGlobal {
  readonly qualifiedName: string;
  /** `callable(*args)` (REDUCE); absent when the global may not be called. */
  call?(args: PyTuple): unknown;
  /** `cls.__new__(cls, *args)` (NEWOBJ); absent when the global is not a class. */
  construct?(args: PyTuple): unknown;
}

/** The reading position that BUILD hooks may continue from (joblib puts array bytes there). */
export interface PickleStream {
  readonly reader: ByteReader;
  /** Reads one further complete pickle from the current position. */
  loadNested(): unknown;
}

/** An object whose BUILD is special (numpy dtypes and arrays, joblib's array wrapper). */
export interface Buildable {
  /** Applies the state; returns the value that replaces the object on the stack. */
  build(state: unknown, stream: PickleStream): unknown;
}

export type PicklePolicy = (module: string, name: string) => PickleGlobal;

export class ByteReader {
  position = 0;
  private readonly view: DataView;

  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get remaining(): number {
    return this.bytes.length - this.position;
  }

  private need(count: number): number {
    if (!Number.isSafeInteger(count) || count < 0 || count > this.remaining) {
      throw new PickleError(`file terpotong: perlu ${count} byte pada posisi ${this.position}, tersisa ${this.remaining}`);
    }
    const start = this.position;
    this.position += count;
    return start;
  }

  byte(): number {
    return this.bytes[this.need(1)]!;
  }

  take(count: number): Uint8Array {
    const start = this.need(count);
    return this.bytes.subarray(start, start + count);
  }

  skip(count: number): void {
    this.need(count);
  }

  uint16(): number {
    return this.view.getUint16(this.need(2), true);
  }

  uint32(): number {
    return this.view.getUint32(this.need(4), true);
  }

  int32(): number {
    return this.view.getInt32(this.need(4), true);
  }

  /** An 8-byte length; anything beyond the file is refused by `need` later. */
  uint64(): number {
    const value = this.view.getBigUint64(this.need(8), true);
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new PickleError(`panjang tidak masuk akal: ${value}`);
    return Number(value);
  }

  float64BigEndian(): number {
    return this.view.getFloat64(this.need(8), false);
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new PickleError("teks UTF-8 tidak valid dalam pickle");
  }
}

/** Python 2 `str` payloads (protocol 2 files from Python 2) read as Latin-1 text. */
export function decodeLatin1(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return text;
}

/** Little-endian two's complement, as LONG1 and LONG4 carry it. */
export function decodeLong(bytes: Uint8Array): number | bigint {
  if (bytes.length === 0) return 0;
  let value = 0n;
  for (let index = bytes.length - 1; index >= 0; index--) value = (value << 8n) | BigInt(bytes[index]!);
  if (bytes[bytes.length - 1]! & 0x80) value -= 1n << BigInt(bytes.length * 8);
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
}

export function isBuildable(value: unknown): value is Buildable {
  return typeof value === "object" && value !== null && typeof (value as Buildable).build === "function";
}

export function isGlobal(value: unknown): value is PickleGlobal {
  return typeof value === "object" && value !== null && typeof (value as PickleGlobal).qualifiedName === "string";
}

/** Dict and set keys must be values, not mutable containers, as in Python. */
export function hashable(key: unknown): unknown {
  if (key === null || ["string", "number", "boolean", "bigint"].includes(typeof key)) return key;
  throw new PickleError(`kunci dict/set tidak didukung: ${describe(key)}`);
}

export function describe(value: unknown): string {
  if (value === null) return "None";
  if (Array.isArray(value)) return Object.isFrozen(value) ? "tuple" : "list";
  if (value instanceof Map) return "dict";
  if (value instanceof Set) return "set";
  if (value instanceof Uint8Array) return "bytes";
  if (value instanceof PyObject) return value.className;
  if (isGlobal(value)) return value.qualifiedName;
  if (typeof value === "object") return value.constructor.name;
  return typeof value;
}

/** Opcode names, for refusing an opcode by name. */
export const opcodeNames: Record<number, string> = {
  0x28: "MARK", 0x2e: "STOP", 0x30: "POP", 0x31: "POP_MARK", 0x32: "DUP", 0x42: "BINBYTES", 0x43: "SHORT_BINBYTES",
  0x46: "FLOAT", 0x47: "BINFLOAT", 0x49: "INT", 0x4a: "BININT", 0x4b: "BININT1", 0x4c: "LONG", 0x4d: "BININT2",
  0x4e: "NONE", 0x50: "PERSID", 0x51: "BINPERSID", 0x52: "REDUCE", 0x53: "STRING", 0x54: "BINSTRING",
  0x55: "SHORT_BINSTRING", 0x56: "UNICODE", 0x58: "BINUNICODE", 0x5d: "EMPTY_LIST", 0x61: "APPEND", 0x62: "BUILD",
  0x63: "GLOBAL", 0x64: "DICT", 0x65: "APPENDS", 0x67: "GET", 0x68: "BINGET", 0x69: "INST", 0x6a: "LONG_BINGET",
  0x6c: "LIST", 0x6f: "OBJ", 0x70: "PUT", 0x71: "BINPUT", 0x72: "LONG_BINPUT", 0x73: "SETITEM", 0x74: "TUPLE",
  0x75: "SETITEMS", 0x7d: "EMPTY_DICT", 0x29: "EMPTY_TUPLE", 0x80: "PROTO", 0x81: "NEWOBJ", 0x82: "EXT1",
  0x83: "EXT2", 0x84: "EXT4", 0x85: "TUPLE1", 0x86: "TUPLE2", 0x87: "TUPLE3", 0x88: "NEWTRUE", 0x89: "NEWFALSE",
  0x8a: "LONG1", 0x8b: "LONG4", 0x8c: "SHORT_BINUNICODE", 0x8d: "BINUNICODE8", 0x8e: "BINBYTES8", 0x8f: "EMPTY_SET",
  0x90: "ADDITEMS", 0x91: "FROZENSET", 0x92: "NEWOBJ_EX", 0x93: "STACK_GLOBAL", 0x94: "MEMOIZE", 0x95: "FRAME",
  0x96: "BYTEARRAY8", 0x97: "NEXT_BUFFER", 0x98: "READONLY_BUFFER",
};
