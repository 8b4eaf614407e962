/**
 * A restricted pickle interpreter for protocols 2–5. It builds plain values (None, bool,
 * int, float, str, bytes, list, tuple, dict, set) itself and asks a policy for every
 * global the stream names; the policy returns an inert stand-in or refuses. Nothing named
 * in a file is ever executed.
 */

import {
  ByteReader,
  PickleError,
  PyObject,
  decodeLatin1,
  decodeLong,
  decodeUtf8,
  describe,
  hashable,
  isBuildable,
  isGlobal,
  type PickleGlobal,
  type PicklePolicy,
  opcodeNames,
  type PickleStream,
} from "./pickle-values";


/** Opcodes an old pickle (protocol 0: text, or 1: binary, both without PROTO) begins with. */
const protocol0Starts = new Set([0x28, 0x63, 0x49, 0x46, 0x53, 0x56, 0x4e, 0x4c]);
const protocol1Starts = new Set([0x28, 0x63, 0x7d, 0x5d, 0x29]);

/**
 * Why a stream that starts without PROTO is refused, when it is a pickle of an old
 * protocol: protocol 0 is ASCII text in lines, protocol 1 binary.
 */
export function oldProtocolMessage(bytes: Uint8Array, start = 0): string | null {
  const resave = "simpan ulang dengan joblib.dump(model, file) atau pickle.dump(model, file, protocol=4)";
  const first = bytes[start]!;
  const head = bytes.subarray(start, start + 256);
  if (protocol0Starts.has(first) && head.includes(0x0a) && head.every((byte) => byte < 0x80)) {
    return `pickle protokol 0 (format teks lama) tidak didukung; ${resave}`;
  }
  if (protocol1Starts.has(first)) return `pickle protokol 1 (format lama tanpa penanda protokol) tidak didukung; ${resave}`;
  return null;
}

/** One pickle: PROTO first, then opcodes until STOP. */
export class Unpickler implements PickleStream {
  private stack: unknown[] = [];
  private readonly marks: number[] = [];
  private readonly memo = new Map<number, unknown>();

  constructor(
    readonly reader: ByteReader,
    private readonly policy: PicklePolicy,
  ) {}

  loadNested(): unknown {
    return new Unpickler(this.reader, this.policy).load();
  }

  private pop(): unknown {
    if (this.stack.length === 0 || (this.marks.length > 0 && this.stack.length <= this.marks[this.marks.length - 1]!)) {
      throw new PickleError("pickle rusak: tumpukan kosong");
    }
    return this.stack.pop();
  }

  private top(): unknown {
    if (this.stack.length === 0 || (this.marks.length > 0 && this.stack.length <= this.marks[this.marks.length - 1]!)) {
      throw new PickleError("pickle rusak: tumpukan kosong");
    }
    return this.stack[this.stack.length - 1];
  }

  /** Everything pushed since the last MARK, removing the mark. */
  private popMark(): unknown[] {
    const mark = this.marks.pop();
    if (mark === undefined) throw new PickleError("pickle rusak: MARK tidak ada");
    return this.stack.splice(mark);
  }

  private list(): unknown[] {
    const target = this.top();
    if (!Array.isArray(target) || Object.isFrozen(target)) throw new PickleError(`pickle rusak: APPEND pada ${describe(target)}`);
    return target;
  }

  private memoGet(index: number): unknown {
    if (!this.memo.has(index)) throw new PickleError(`pickle rusak: memo ${index} tidak ada`);
    return this.memo.get(index);
  }

  private memoPut(index: number): void {
    this.memo.set(index, this.top());
  }

  private setItems(dict: unknown, items: unknown[]): void {
    if (!(dict instanceof Map)) throw new PickleError(`pickle rusak: SETITEM pada ${describe(dict)}`);
    if (items.length % 2 !== 0) throw new PickleError("pickle rusak: jumlah kunci dan nilai dict ganjil");
    for (let index = 0; index < items.length; index += 2) dict.set(hashable(items[index]), items[index + 1]);
  }

  private global(module: unknown, name: unknown): PickleGlobal {
    if (typeof module !== "string" || typeof name !== "string") throw new PickleError("pickle rusak: nama global bukan teks");
    return this.policy(module, name);
  }

  private reduce(): void {
    const args = this.pop();
    const callable = this.pop();
    if (!Array.isArray(args)) throw new PickleError(`pickle rusak: argumen REDUCE berupa ${describe(args)}`);
    if (!isGlobal(callable) || !callable.call) throw new PickleError(`tidak boleh memanggil ${describe(callable)}`);
    this.stack.push(callable.call(Object.freeze(args)));
  }

  private newObject(args: unknown, cls: unknown): void {
    if (!Array.isArray(args)) throw new PickleError(`pickle rusak: argumen NEWOBJ berupa ${describe(args)}`);
    if (!isGlobal(cls) || !cls.construct) throw new PickleError(`tidak boleh membuat objek ${describe(cls)}`);
    this.stack.push(cls.construct(Object.freeze(args)));
  }

  private buildTop(): void {
    const state = this.pop();
    const target = this.top();
    let result: unknown = target;
    if (isBuildable(target)) {
      result = target.build(state, this);
    } else if (target instanceof PyObject) {
      // `__setstate__` of plain classes: a dict, or (dict, slots) for classes with slots.
      const parts = Array.isArray(state) && state.length === 2 ? state : [state];
      for (const part of parts) {
        if (part === null) continue;
        if (!(part instanceof Map)) throw new PickleError(`state ${target.className} berupa ${describe(part)}`);
        for (const [key, value] of part) {
          if (typeof key !== "string") throw new PickleError(`atribut ${target.className} bukan teks`);
          target.state.set(key, value);
        }
      }
    } else {
      throw new PickleError(`BUILD tidak didukung pada ${describe(target)}`);
    }
    this.stack[this.stack.length - 1] = result;
  }

  load(): unknown {
    const reader = this.reader;
    if (reader.remaining === 0) throw new PickleError("file kosong");
    const start = reader.position;
    if (reader.byte() !== 0x80) throw new PickleError(oldProtocolMessage(reader.bytes, start) ?? "bukan pickle protokol 2 atau lebih baru");
    const protocol = reader.byte();
    if (protocol < 2 || protocol > 5) throw new PickleError(`protokol pickle ${protocol} tidak didukung (2–5)`);

    for (;;) {
      const position = reader.position;
      const opcode = reader.byte();
      switch (opcode) {
        case 0x95: {
          // FRAME: frames only group opcodes for buffered reading; the bytes run on unchanged.
          const length = reader.uint64();
          if (length > reader.remaining) throw new PickleError(`file terpotong: frame ${length} byte, tersisa ${reader.remaining}`);
          break;
        }
        case 0x80:
          throw new PickleError(`pickle rusak: PROTO di posisi ${position}`);
        case 0x2e: // STOP
          if (this.marks.length > 0 || this.stack.length !== 1) throw new PickleError("pickle rusak: tumpukan tidak selesai pada STOP");
          return this.stack.pop();

        case 0x28: // MARK
          this.marks.push(this.stack.length);
          break;
        case 0x30: // POP
          if (this.marks.length > 0 && this.marks[this.marks.length - 1] === this.stack.length) this.marks.pop();
          else this.pop();
          break;
        case 0x31: // POP_MARK
          this.popMark();
          break;
        case 0x32: // DUP
          this.stack.push(this.top());
          break;

        case 0x4e: // NONE
          this.stack.push(null);
          break;
        case 0x88: // NEWTRUE
          this.stack.push(true);
          break;
        case 0x89: // NEWFALSE
          this.stack.push(false);
          break;
        case 0x4a: // BININT
          this.stack.push(reader.int32());
          break;
        case 0x4b: // BININT1
          this.stack.push(reader.byte());
          break;
        case 0x4d: // BININT2
          this.stack.push(reader.uint16());
          break;
        case 0x8a: // LONG1
          this.stack.push(decodeLong(reader.take(reader.byte())));
          break;
        case 0x8b: {
          // LONG4
          const length = reader.int32();
          if (length < 0) throw new PickleError("pickle rusak: panjang LONG4 negatif");
          this.stack.push(decodeLong(reader.take(length)));
          break;
        }
        case 0x47: // BINFLOAT
          this.stack.push(reader.float64BigEndian());
          break;

        case 0x8c: // SHORT_BINUNICODE
          this.stack.push(decodeUtf8(reader.take(reader.byte())));
          break;
        case 0x58: // BINUNICODE
          this.stack.push(decodeUtf8(reader.take(reader.uint32())));
          break;
        case 0x8d: // BINUNICODE8
          this.stack.push(decodeUtf8(reader.take(reader.uint64())));
          break;
        case 0x55: // SHORT_BINSTRING
          this.stack.push(decodeLatin1(reader.take(reader.byte())));
          break;
        case 0x54: {
          // BINSTRING
          const length = reader.int32();
          if (length < 0) throw new PickleError("pickle rusak: panjang BINSTRING negatif");
          this.stack.push(decodeLatin1(reader.take(length)));
          break;
        }
        case 0x43: // SHORT_BINBYTES
          this.stack.push(reader.take(reader.byte()).slice());
          break;
        case 0x42: // BINBYTES
          this.stack.push(reader.take(reader.uint32()).slice());
          break;
        case 0x8e: // BINBYTES8
        case 0x96: // BYTEARRAY8
          this.stack.push(reader.take(reader.uint64()).slice());
          break;

        case 0x5d: // EMPTY_LIST
          this.stack.push([]);
          break;
        case 0x6c: // LIST
          this.stack.push(this.popMark());
          break;
        case 0x61: {
          // APPEND
          const value = this.pop();
          this.list().push(value);
          break;
        }
        case 0x65: {
          // APPENDS
          const values = this.popMark();
          this.list().push(...values);
          break;
        }
        case 0x29: // EMPTY_TUPLE
          this.stack.push(Object.freeze([]));
          break;
        case 0x74: // TUPLE
          this.stack.push(Object.freeze(this.popMark()));
          break;
        case 0x85: // TUPLE1
          this.stack.push(Object.freeze([this.pop()]));
          break;
        case 0x86: {
          // TUPLE2
          const second = this.pop();
          this.stack.push(Object.freeze([this.pop(), second]));
          break;
        }
        case 0x87: {
          // TUPLE3
          const third = this.pop();
          const second = this.pop();
          this.stack.push(Object.freeze([this.pop(), second, third]));
          break;
        }
        case 0x7d: // EMPTY_DICT
          this.stack.push(new Map());
          break;
        case 0x64: {
          // DICT
          const dict = new Map();
          this.setItems(dict, this.popMark());
          this.stack.push(dict);
          break;
        }
        case 0x73: {
          // SETITEM
          const value = this.pop();
          const key = this.pop();
          this.setItems(this.top(), [key, value]);
          break;
        }
        case 0x75: {
          // SETITEMS
          const items = this.popMark();
          this.setItems(this.top(), items);
          break;
        }
        case 0x8f: // EMPTY_SET
          this.stack.push(new Set());
          break;
        case 0x90: {
          // ADDITEMS
          const items = this.popMark();
          const set = this.top();
          if (!(set instanceof Set) || Object.isFrozen(set)) throw new PickleError(`pickle rusak: ADDITEMS pada ${describe(set)}`);
          for (const item of items) set.add(hashable(item));
          break;
        }
        case 0x91: // FROZENSET
          this.stack.push(Object.freeze(new Set(this.popMark().map(hashable))));
          break;

        case 0x63: {
          // GLOBAL: "module\nname\n"
          const module = this.readLine();
          const name = this.readLine();
          this.stack.push(this.global(module, name));
          break;
        }
        case 0x93: {
          // STACK_GLOBAL
          const name = this.pop();
          const module = this.pop();
          this.stack.push(this.global(module, name));
          break;
        }
        case 0x52: // REDUCE
          this.reduce();
          break;
        case 0x81: {
          // NEWOBJ
          const args = this.pop();
          this.newObject(args, this.pop());
          break;
        }
        case 0x92: {
          // NEWOBJ_EX
          const kwargs = this.pop();
          const args = this.pop();
          if (!(kwargs instanceof Map) || kwargs.size > 0) throw new PickleError("NEWOBJ_EX dengan argumen kata kunci tidak didukung");
          this.newObject(args, this.pop());
          break;
        }
        case 0x62: // BUILD
          this.buildTop();
          break;

        case 0x71: // BINPUT
          this.memoPut(reader.byte());
          break;
        case 0x72: // LONG_BINPUT
          this.memoPut(reader.uint32());
          break;
        case 0x94: // MEMOIZE
          this.memoPut(this.memo.size);
          break;
        case 0x68: // BINGET
          this.stack.push(this.memoGet(reader.byte()));
          break;
        case 0x6a: // LONG_BINGET
          this.stack.push(this.memoGet(reader.uint32()));
          break;

        default: {
          const name = opcodeNames[opcode];
          throw new PickleError(name ? `opcode pickle ${name} tidak didukung` : `pickle rusak: opcode 0x${opcode.toString(16).padStart(2, "0")} di posisi ${position}`);
        }
      }
    }
  }

  private readLine(): string {
    const bytes = this.reader.bytes;
    const start = this.reader.position;
    const end = bytes.indexOf(0x0a, start);
    if (end < 0 || end - start > 1000) throw new PickleError("pickle rusak: nama GLOBAL tanpa akhir baris");
    this.reader.skip(end - start + 1);
    return decodeUtf8(bytes.subarray(start, end));
  }
}
