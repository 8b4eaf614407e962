import { describe, expect, test } from "bun:test";
import { PhotoFormatError, stripMetadata, type ImageType } from "../../src/photos/image";
import { ascii, concatBytes, pngSignature, samples, types } from "./fixtures";

// stripMetadata on random and mutated pictures: a clean copy or a PhotoFormatError, nothing
// else (the well-formed cases: image.test.ts).

/** mulberry32: a seeded generator, so that a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function mutate(input: Uint8Array, next: () => number): Uint8Array {
  const at = Math.floor(next() * input.length);
  const bytes = Array.from(input);
  switch (Math.floor(next() * 5)) {
    case 0:
      for (let count = 1 + Math.floor(next() * 4); count > 0; count--) bytes[Math.floor(next() * bytes.length)] = Math.floor(next() * 256);
      break;
    case 1:
      bytes.length = at;
      break;
    case 2:
      bytes.splice(at, 0, ...Array.from({ length: 1 + next() * 8 }, () => Math.floor(next() * 256)));
      break;
    case 3:
      bytes.splice(at, 1 + Math.floor(next() * 16));
      break;
    default:
      // A boundary value where lengths and sizes are read.
      bytes[at] = next() < 0.5 ? 0xff : 0x00;
  }
  return Uint8Array.from(bytes);
}

/** Either a clean copy that a second pass leaves unchanged, or a PhotoFormatError: nothing else. */
function expectStripsOrRejects(bytes: Uint8Array, type: ImageType) {
  let output: Uint8Array;
  try {
    output = stripMetadata(bytes, type);
  } catch (error) {
    if (!(error instanceof PhotoFormatError)) throw new Error(`${type} threw ${String(error)} for ${Array.from(bytes).join(",")}`);
    return;
  }
  expect(output.length).toBeLessThanOrEqual(bytes.length);
  expect(stripMetadata(output, type)).toEqual(output);
}

describe("stripMetadata: fuzzing", () => {
  test("random buffers, bare or behind a valid signature", () => {
    const next = random(0x5eed);
    const signatures: Record<ImageType, Uint8Array> = {
      jpeg: Uint8Array.from([0xff, 0xd8]),
      png: pngSignature,
      gif: ascii("GIF89a"),
      webp: concatBytes(ascii("RIFF"), [0xff, 0, 0, 0], ascii("WEBP")),
    };
    for (let round = 0; round < 3000; round++) {
      const noise = Uint8Array.from({ length: Math.floor(next() * 300) }, () => Math.floor(next() * 256));
      for (const type of types) {
        expectStripsOrRejects(noise, type);
        expectStripsOrRejects(concatBytes(signatures[type], noise), type);
      }
    }
  });

  test("mutations of the valid fixtures", () => {
    const next = random(20240517);
    for (const [type, make] of samples) {
      const valid = make();
      let input = valid;
      for (let round = 0; round < 2000; round++) {
        // Mostly single mutations of the valid file, sometimes piled up on the previous one.
        input = mutate(next() < 0.7 ? valid : input, next);
        expectStripsOrRejects(input, type);
      }
    }
  });
});
