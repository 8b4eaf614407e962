import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { deflateSync, gzipSync } from "node:zlib";
import { readJoblib } from "../../src/models/sklearn/joblib";
import { NdArray } from "../../src/models/sklearn/numpy";
import { Unpickler } from "../../src/models/sklearn/pickle";
import { ByteReader, PickleError, PyObject, type PickleGlobal } from "../../src/models/sklearn/pickle-values";
import { PickleBuilder, fixtureBytes, float64Bytes, originalDir, sklearnDir } from "./support";

/** Plain values need no globals: any global is refused. */
const noGlobals = (module: string, name: string): PickleGlobal => {
  throw new PickleError(`kelas tidak diizinkan: ${module}.${name}`);
};

function load(builder: PickleBuilder): unknown {
  return new Unpickler(new ByteReader(builder.stop().done()), noGlobals).load();
}

function loadJoblib(builder: PickleBuilder): unknown {
  return readJoblib(builder.done());
}

describe("pickle opcodes", () => {
  test("constants and integers: NONE, NEWTRUE/NEWFALSE, BININT1/2/4, LONG1, LONG4, BINFLOAT", () => {
    const p = new PickleBuilder(2).mark();
    p.none().op(0x88).op(0x89).int1(255).int2(65535).int4(-2);
    p.op(0x8a, 0); // LONG1 of zero bytes is 0
    p.op(0x8a, 2, 0x00, 0x80); // -32768
    p.op(0x8a, 9, 0, 0, 0, 0, 0, 0, 0, 0, 1); // 2**64, beyond doubles' integers
    p.op(0x8b, ...p.u32(1), 0x7f);
    p.float(0.1).float(-1.5e300);
    expect(load(p.op(0x6c))).toEqual([null, true, false, 255, 65535, -2, 0, -32768, 2n ** 64n, 127, 0.1, -1.5e300]);
  });

  test("text and bytes: SHORT_BINUNICODE, BINUNICODE, BINUNICODE8, SHORT_BINSTRING, BINSTRING, SHORT_BINBYTES, BINBYTES, BINBYTES8, BYTEARRAY8", () => {
    const p = new PickleBuilder(5).mark();
    const utf8 = [...new TextEncoder().encode("Dua Ñ")];
    p.op(0x8c, utf8.length, ...utf8);
    p.op(0x58, ...p.u32(3), 0x61, 0x62, 0x63);
    p.op(0x8d, ...p.u64(2), 0x68, 0x69);
    p.op(0x55, 2, 0xe9, 0x41); // Python 2 str, read as Latin-1
    p.op(0x54, ...p.u32(1), 0x5a);
    p.op(0x43, 2, 1, 2).op(0x42, ...p.u32(1), 3).op(0x8e, ...p.u64(1), 4).op(0x96, ...p.u64(2), 5, 6);
    expect(load(p.op(0x6c))).toEqual(["Dua Ñ", "abc", "hi", "éA", "Z", Uint8Array.of(1, 2), Uint8Array.of(3), Uint8Array.of(4), Uint8Array.of(5, 6)]);
  });

  test("lists, tuples, dicts and sets: EMPTY_*, APPEND(S), LIST, TUPLE1-3, TUPLE, SETITEM(S), DICT, ADDITEMS, FROZENSET", () => {
    const p = new PickleBuilder(4).emptyDict();
    p.str("list").emptyList().int1(1).append().mark().int1(2).int1(3).appends().setitem();
    p.mark();
    p.str("marked").mark().int1(4).op(0x6c);
    p.str("tuples").mark().emptyTuple().int1(1).tuple1().int1(1).int1(2).tuple2().int1(1).int1(2).int1(3).tuple3().mark().int1(9).op(0x74).op(0x6c);
    p.str("dict").mark().str("k").int1(1).op(0x64);
    p.str("set").op(0x8f).mark().int1(5).int1(5).int1(6).op(0x90);
    p.str("frozen").mark().str("a").op(0x91);
    p.setitems();
    p.int1(7).str("seven").setitem();
    const value = load(p) as Map<unknown, unknown>;
    expect(value.get("list")).toEqual([1, 2, 3]);
    expect(value.get("marked")).toEqual([4]);
    const tuples = value.get("tuples") as unknown[];
    expect(tuples).toEqual([[], [1], [1, 2], [1, 2, 3], [9]]);
    expect(Object.isFrozen(tuples[1])).toBe(true);
    expect(value.get("dict")).toEqual(new Map([["k", 1]]));
    expect(value.get("set")).toEqual(new Set([5, 6]));
    expect(value.get("frozen")).toEqual(new Set(["a"]));
    // Python dicts keep int keys apart from text keys.
    expect(value.get(7)).toBe("seven");
    expect(value.get("7")).toBeUndefined();
  });

  test("stack and memo: POP, POP_MARK, DUP, BINPUT/BINGET, LONG_BINPUT/LONG_BINGET, MEMOIZE keep shared objects shared", () => {
    const p = new PickleBuilder(4).mark();
    p.emptyList().put(1).op(0x72, ...p.u32(70000)).memoize(); // memo 1, 70000 and 2 (MEMOIZE uses the memo size)
    p.get(1).op(0x6a, ...p.u32(70000)).get(2);
    p.int1(99).op(0x30); // POP
    p.mark().int1(1).int1(2).op(0x31); // POP_MARK drops everything since its MARK
    p.int1(5).op(0x32); // DUP
    const value = load(p.op(0x6c)) as unknown[];
    expect(value).toHaveLength(6);
    expect(value[1]).toBe(value[0]);
    expect(value[2]).toBe(value[0]);
    expect(value[3]).toBe(value[0]);
    expect(value.slice(4)).toEqual([5, 5]);
  });

  test("framing (protocol 4 and 5) is read straight through; protocols 2 and 3 have no frames", () => {
    for (const protocol of [2, 3, 4, 5]) {
      const p = new PickleBuilder(protocol);
      if (protocol >= 4) p.frame(3);
      p.int1(7).stop();
      expect(new Unpickler(new ByteReader(p.done()), noGlobals).load()).toBe(7);
    }
  });

  test("protocols other than 2–5 are refused", () => {
    expect(() => load(new PickleBuilder(6).int1(1))).toThrow("protokol pickle 6 tidak didukung");
    expect(() => new Unpickler(new ByteReader(Uint8Array.of(0x4b, 0x01, 0x2e)), noGlobals).load()).toThrow("bukan pickle protokol 2");
  });

  test("pickles of protocol 0 and 1 (no PROTO) say what they are and how to save anew", () => {
    // pickle.dumps({'a': 1}, protocol=0) and protocol=1
    const protocol0 = new TextEncoder().encode("(dp0\nVa\np1\nI1\ns.");
    const protocol1 = Uint8Array.of(0x7d, 0x71, 0x00, 0x58, 0x01, 0, 0, 0, 0x61, 0x71, 0x01, 0x4b, 0x01, 0x73, 0x2e);
    for (const read of [(bytes: Uint8Array) => readJoblib(bytes), (bytes: Uint8Array) => new Unpickler(new ByteReader(bytes), noGlobals).load()]) {
      expect(() => read(protocol0)).toThrow("pickle protokol 0 (format teks lama) tidak didukung; simpan ulang dengan joblib.dump(model, file)");
      expect(() => read(protocol1)).toThrow("pickle protokol 1 (format lama tanpa penanda protokol) tidak didukung");
    }
  });

  test("globals, REDUCE, NEWOBJ, NEWOBJ_EX and BUILD (dict state and (None, slots) state)", () => {
    const made: unknown[][] = [];
    const policy = (module: string, name: string): PickleGlobal => {
      if (`${module}.${name}` !== "pkg.Thing") throw new PickleError(`kelas tidak diizinkan: ${module}.${name}`);
      return {
        qualifiedName: "pkg.Thing",
        call: (args) => (made.push([...args]), new PyObject("Thing", args)),
        construct: (args) => new PyObject("Thing", args),
      };
    };
    const p = new PickleBuilder(4).mark();
    p.global("pkg", "Thing").int1(1).tuple1().reduce();
    p.str("pkg").str("Thing").stackGlobal().emptyTuple().newobj().emptyDict().str("a").int1(2).setitem().build();
    p.str("pkg").str("Thing").stackGlobal().int1(3).tuple1().emptyDict().op(0x92).none().emptyDict().str("slot").int1(4).setitem().tuple2().build();
    const [reduced, built, slotted] = new Unpickler(new ByteReader(p.op(0x6c).stop().done()), policy).load() as PyObject[];
    expect(made).toEqual([[1]]);
    expect(reduced!.args).toEqual([1]);
    expect(built!.get("a")).toBe(2);
    expect(slotted!.args).toEqual([3]);
    expect(slotted!.get("slot")).toBe(4);
  });

  test("opcodes outside the supported set are refused by name", () => {
    expect(() => load(new PickleBuilder(2).op(0x49, 0x31, 0x0a))).toThrow("opcode pickle INT tidak didukung");
    expect(() => load(new PickleBuilder(2).str("x").op(0x51))).toThrow("opcode pickle BINPERSID tidak didukung");
    expect(() => load(new PickleBuilder(2).op(0x82, 1))).toThrow("opcode pickle EXT1 tidak didukung");
    expect(() => load(new PickleBuilder(5).op(0x97))).toThrow("opcode pickle NEXT_BUFFER tidak didukung");
    expect(() => load(new PickleBuilder(2).mark().str("os").str("system").op(0x69))).toThrow("opcode pickle INST tidak didukung");
    expect(() => load(new PickleBuilder(2).op(0xff))).toThrow("opcode 0xff");
  });

  test("damaged streams fail with a PickleError, never hang or return half a value", () => {
    const cases: [string, PickleBuilder][] = [
      ["no STOP", new PickleBuilder(4).int1(1)],
      ["string longer than the file", new PickleBuilder(4).op(0x58, ...new PickleBuilder().u32(1000), 0x61)],
      ["frame longer than the file", new PickleBuilder(4).frame(1 << 20).int1(1).stop()],
      ["memo miss", new PickleBuilder(4).get(3).stop()],
      ["APPEND on a tuple", new PickleBuilder(4).emptyTuple().int1(1).append().stop()],
      ["SETITEM on a list", new PickleBuilder(4).emptyList().int1(1).int1(2).setitem().stop()],
      ["two values at STOP", new PickleBuilder(4).int1(1).int1(2).stop()],
      ["POP on an empty stack", new PickleBuilder(4).op(0x30).stop()],
      ["list as a dict key", new PickleBuilder(4).emptyDict().emptyList().int1(1).setitem().stop()],
      ["REDUCE on a plain value", new PickleBuilder(4).int1(1).emptyTuple().reduce().stop()],
      ["empty file", new PickleBuilder(4)],
    ];
    for (const [name, builder] of cases) {
      const bytes = name === "empty file" ? new Uint8Array() : builder.done();
      expect(() => new Unpickler(new ByteReader(bytes), noGlobals).load(), name).toThrow(PickleError);
    }
  });
});

describe("numpy and joblib", () => {
  test("an array wrapper with alignment padding (newer joblib) reads the bytes after the padding", () => {
    const p = new PickleBuilder(4).emptyList();
    p.wrapper("f8", [3], { alignment: 16 });
    const padding = 16 - ((p.length + 1) % 16);
    p.op(padding, ...new Array(padding).fill(0xff)).raw(float64Bytes([1.5, -2, 1e-300])).append();
    const [array] = loadJoblib(p.stop()) as NdArray[];
    expect(array).toBeInstanceOf(NdArray);
    expect(Array.from(array!.numbers!)).toEqual([1.5, -2, 1e-300]);
  });

  test("an array wrapper without the alignment key (older joblib) or with None reads the bytes at once", () => {
    for (const alignment of [undefined, null]) {
      const p = new PickleBuilder(3).emptyList();
      p.wrapper("i8", [2], { alignment }).raw([5, 0, 0, 0, 0, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]).append();
      expect(Array.from((loadJoblib(p.stop()) as NdArray[])[0]!.numbers!)).toEqual([5, -2]);
    }
  });

  test("Fortran-ordered matrices come out in C order; text arrays drop their NUL padding", () => {
    const p = new PickleBuilder(4).emptyList();
    // [[1, 2, 3], [4, 5, 6]] stored column by column.
    p.wrapper("f8", [2, 3], { order: "F" }).raw(float64Bytes([1, 4, 2, 5, 3, 6])).append();
    const text = new Uint8Array(16);
    new DataView(text.buffer).setUint32(0, 0x41, true);
    new DataView(text.buffer).setUint32(8, 0x1f600, true);
    p.wrapper("U2", [2]).raw(text).append();
    const [matrix, strings] = loadJoblib(p.stop()) as NdArray[];
    expect(Array.from(matrix!.numbers!)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(strings!.items).toEqual(["A", "😀"]);
  });

  test("object arrays are a nested protocol-2 pickle (_reconstruct + BUILD) at the wrapper's place", () => {
    const p = new PickleBuilder(4).emptyList();
    p.wrapper("O8", [2], { alignment: 16 });
    // The nested pickle, as numpy pickles an object array with protocol 2.
    p.op(0x80, 2).global("numpy.core.multiarray", "_reconstruct").global("numpy", "ndarray").int1(0).tuple1();
    p.global("_codecs", "encode").str("b").str("latin1").tuple2().reduce();
    p.tuple3().reduce();
    p.mark().int1(1).int1(2).tuple1().dtype("O8", "|").op(0x89).emptyList().str("Laki-laki").append().int1(3).append().op(0x74).build();
    p.stop();
    p.append().int1(9).append();
    const [array, after] = loadJoblib(p.stop()) as [NdArray, number];
    expect(array.items).toEqual(["Laki-laki", 3]);
    expect(after).toBe(9);
  });

  test("numpy scalars, big-endian dtypes and structured records (tree nodes)", () => {
    const p = new PickleBuilder(4).emptyList();
    p.global("numpy._core.multiarray", "scalar").dtype("f8").bytes(float64Bytes([3.5])).tuple2().reduce().append();
    p.wrapper("i4", [1]).raw([0, 0, 1, 0]).append();
    // Override the little-endian default of `wrapper` by building a '>' dtype by hand.
    const big = new PickleBuilder(4).emptyList();
    big.global("joblib.numpy_pickle", "NumpyArrayWrapper").emptyTuple().newobj().emptyDict().mark();
    big.str("subclass").global("numpy", "ndarray").str("shape").int1(1).tuple1().str("order").str("C").str("dtype").dtype("i4", ">");
    big.setitems().build().raw([0, 0, 1, 0]).append();
    const structured = new PickleBuilder(4).emptyList();
    structured.global("joblib.numpy_pickle", "NumpyArrayWrapper").emptyTuple().newobj().emptyDict().mark();
    structured.str("subclass").global("numpy", "ndarray").str("shape").int1(2).tuple1().str("order").str("C").str("dtype");
    structured.global("numpy", "dtype").str("V16").op(0x89).op(0x88).tuple3().reduce();
    structured.mark().int1(3).str("|").none().str("left_child").str("threshold").tuple2();
    structured.emptyDict().str("left_child").dtype("i8").int1(0).tuple2().setitem().str("threshold").dtype("f8").int1(8).tuple2().setitem();
    structured.int1(16).int1(1).int1(16).op(0x74).build();
    structured.setitems().build();
    const record = (left: number, threshold: number) => [...new Uint8Array(BigInt64Array.of(BigInt(left)).buffer), ...float64Bytes([threshold])];
    structured.raw([...record(-1, -2), ...record(7, 0.25)]).append();

    const [scalar, little] = loadJoblib(p.stop()) as [number, NdArray];
    expect(scalar).toBe(3.5);
    expect(Array.from(little.numbers!)).toEqual([65536]);
    expect(Array.from((loadJoblib(big.stop()) as NdArray[])[0]!.numbers!)).toEqual([256]);
    const nodes = (loadJoblib(structured.stop()) as NdArray[])[0]!;
    expect(Array.from(nodes.fields!.get("left_child")!)).toEqual([-1, 7]);
    expect(Array.from(nodes.fields!.get("threshold")!)).toEqual([-2, 0.25]);
  });

  test("globals outside the whitelist are refused with the class named, before anything is built", () => {
    for (const [module, name] of [
      ["os", "system"],
      ["builtins", "eval"],
      ["sklearn.svm._classes", "SVC"],
      ["numpy", "memmap"],
      ["joblib.numpy_pickle", "NDArrayWrapper"],
    ]) {
      const p = new PickleBuilder(4).str(module!).str(name!).stackGlobal().stop();
      expect(() => loadJoblib(p)).toThrow(`kelas tidak diizinkan dalam file model: ${module}.${name}`);
    }
    const viaGlobal = new PickleBuilder(2).global("subprocess", "Popen").stop();
    expect(() => loadJoblib(viaGlobal)).toThrow("subprocess.Popen");
  });

  test("a whitelisted numpy function cannot be used as a class, nor a type be called", () => {
    expect(() => loadJoblib(new PickleBuilder(4).global("numpy", "float64").int1(1).tuple1().reduce().stop())).toThrow("tidak boleh memanggil numpy.float64");
    expect(() => loadJoblib(new PickleBuilder(4).global("numpy._core.multiarray", "scalar").emptyTuple().newobj().stop())).toThrow("tidak boleh membuat objek");
  });

  test("wrapper arrays that run past the end of the file, or bad padding, are refused", () => {
    const short = new PickleBuilder(4).wrapper("f8", [4]).raw(float64Bytes([1, 2]));
    expect(() => loadJoblib(short)).toThrow("file terpotong");
    const padded = new PickleBuilder(4).wrapper("f8", [1], { alignment: 16 }).op(200);
    expect(() => loadJoblib(padded)).toThrow("padding array 200 byte");
  });

  test("bytes after STOP mean a damaged file", () => {
    expect(() => readJoblib(Uint8Array.of(0x80, 4, 0x4b, 1, 0x2e, 0x00))).toThrow("1 byte tersisa setelah STOP");
  });
});

describe("joblib files", () => {
  const original = fixtureBytes(join(originalDir, "model_v1.joblib"));

  test("zlib and gzip compressed files read the same as the uncompressed file", () => {
    const plain = readJoblib(original) as Map<string, unknown>;
    for (const compressed of [deflateSync(original), gzipSync(original)]) {
      const value = readJoblib(new Uint8Array(compressed)) as Map<string, unknown>;
      expect([...value.keys()]).toEqual([...plain.keys()]);
      expect(value.get("label_map")).toEqual(plain.get("label_map"));
      expect((value.get("pipeline") as PyObject).className).toBe("Pipeline");
    }
  });

  test("other compressors and damaged compressed data give a clear error", () => {
    expect(() => readJoblib(new TextEncoder().encode("BZh91AY&SY"))).toThrow("kompresi bz2 tidak didukung");
    expect(() => readJoblib(Uint8Array.of(0xfd, 0x37, 0x7a, 0x58, 0x5a, 0))).toThrow("kompresi xz tidak didukung");
    expect(() => readJoblib(Uint8Array.of(0x04, 0x22, 0x4d, 0x18, 0))).toThrow("kompresi lz4 tidak didukung");
    expect(() => readJoblib(new TextEncoder().encode("hello"))).toThrow("bukan file joblib/pickle");
    // A compressed file that expands beyond the limit is refused as too large, in Indonesian.
    const zeros = new Uint8Array(3 * 1024 * 1024);
    expect(() => readJoblib(new Uint8Array(deflateSync(zeros)), 1024 * 1024)).toThrow("file model terlalu besar: isi zlib melebihi 1 MB setelah didekompresi");
    expect(() => readJoblib(new Uint8Array(gzipSync(zeros)), 1024 * 1024)).toThrow("file model terlalu besar: isi gzip melebihi 1 MB setelah didekompresi");
    const gzip = gzipSync(original);
    expect(() => readJoblib(new Uint8Array(gzip.subarray(0, gzip.length / 2)))).toThrow("data gzip rusak atau terpotong");
  });

  test("a real file cut anywhere, or with a byte changed, fails cleanly", () => {
    const file = fixtureBytes(join(sklearnDir, "e_decision_tree_multioutput.joblib"));
    for (const length of [1, 2, 20, 500, 5000, file.length - 200, file.length - 1]) {
      expect(() => readJoblib(file.subarray(0, length)), `cut at ${length}`).toThrow(PickleError);
    }
    let failures = 0;
    for (let position = 3; position < 2000; position += 37) {
      const damaged = file.slice();
      damaged[position] = 0xff;
      try {
        readJoblib(damaged);
      } catch (error) {
        expect(error).toBeInstanceOf(PickleError);
        failures++;
      }
    }
    // Some changed bytes only change a value (a threshold, a name); most break the structure.
    expect(failures).toBeGreaterThan(10);
  });
});
