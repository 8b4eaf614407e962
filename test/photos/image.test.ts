import { describe, expect, test } from "bun:test";
import { crc32 } from "node:zlib";
import { extensions, maxImageSide, mediaTypes, PhotoFormatError, sniffImageType, stripMetadata, type ImageType } from "../../src/photos/image";
import {
  ascii,
  concatBytes,
  exifTiff,
  gifLoopExtension,
  gifSized,
  gifWithComment,
  jfifSegment,
  jpegFrame,
  jpegSegment,
  jpegWith,
  jpegWithExif,
  metadataTexts,
  pngChunk,
  pngSignature,
  pngSized,
  pngWithText,
  progressiveJpeg,
  progressiveMetadataTexts,
  riffChunk,
  vp8Frame,
  vp8lFrame,
  vp8x,
  webpAlph,
  webpFrom,
  webpVp8,
  webpWithExif,
  fixtures,
  samples,
  types,
} from "./fixtures";

const latin1 = (bytes: Uint8Array) => new TextDecoder("latin1").decode(bytes);
const leftovers = (bytes: Uint8Array) => metadataTexts.filter((text) => latin1(bytes).includes(text));


/** The marker codes before SOS and the offset of SOS, for the well-formed JPEGs built here. */
function jpegLayout(bytes: Uint8Array): { markers: number[]; sosAt: number } {
  const markers: number[] = [];
  let position = 2;
  while (bytes[position + 1] !== 0xda) {
    markers.push(bytes[position + 1]!);
    position += 2 + ((bytes[position + 2]! << 8) | bytes[position + 3]!);
  }
  return { markers, sosAt: position };
}

function pngChunks(bytes: Uint8Array): { type: string; chunk: Uint8Array }[] {
  const chunks = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let position = 8; position < bytes.length; ) {
    const end = position + 12 + view.getUint32(position);
    chunks.push({ type: latin1(bytes.subarray(position + 4, position + 8)), chunk: bytes.subarray(position, end) });
    position = end;
  }
  return chunks;
}

function riffChunks(bytes: Uint8Array): { fourcc: string; chunk: Uint8Array }[] {
  const chunks = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let position = 12; position < bytes.length; ) {
    const size = view.getUint32(position + 4, true);
    const end = position + 8 + size + (size & 1);
    chunks.push({ fourcc: latin1(bytes.subarray(position, position + 4)), chunk: bytes.subarray(position, end) });
    position = end;
  }
  return chunks;
}

function expectRejected(bytes: Uint8Array, type: ImageType, message: string) {
  let thrown: unknown;
  try {
    stripMetadata(bytes, type);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(PhotoFormatError);
  expect((thrown as Error).message).toBe(message);
}

const expectBroken = (bytes: Uint8Array, type: ImageType) => expectRejected(bytes, type, "File gambar rusak atau tidak lengkap.");
const expectTooLarge = (bytes: Uint8Array, type: ImageType) => expectRejected(bytes, type, "Ukuran gambar terlalu besar.");

describe("sniffImageType", () => {
  test("recognises each accepted format by its content", () => {
    for (const type of types) expect(sniffImageType(fixtures[type]())).toBe(type);
    expect(sniffImageType(concatBytes(ascii("GIF87a"), [1, 0, 1, 0, 0, 0, 0, 0x3b]))).toBe("gif");
  });

  test("rejects what only looks like an image by name or by a partial signature", () => {
    // What a client uploads as "foto.jpg" is judged by its bytes alone.
    expect(sniffImageType(ascii("hello"))).toBeNull();
    expect(sniffImageType(new Uint8Array())).toBeNull();
    expect(sniffImageType(Uint8Array.from([0xff, 0xd8]))).toBeNull();
    expect(sniffImageType(pngSignature.subarray(0, 7))).toBeNull();
    expect(sniffImageType(ascii("GIF88a"))).toBeNull();
    expect(sniffImageType(concatBytes(ascii("RIFF"), [4, 0, 0, 0], ascii("WAVE")))).toBeNull();
    expect(sniffImageType(ascii("<svg xmlns='http://www.w3.org/2000/svg'/>"))).toBeNull();
  });

  test("names the media type and extension of each format", () => {
    expect(mediaTypes).toEqual({ jpeg: "image/jpeg", png: "image/png", gif: "image/gif", webp: "image/webp" });
    expect(extensions).toEqual({ jpeg: "jpg", png: "png", gif: "gif", webp: "webp" });
  });
});

describe("stripMetadata: JPEG", () => {
  test("drops Exif, XMP, Photoshop/IPTC and comments; keeps JFIF and everything from SOS on", () => {
    const input = jpegWithExif();
    expect(leftovers(input)).toEqual(metadataTexts);
    const output = stripMetadata(input, "jpeg");
    expect(leftovers(output)).toEqual([]);
    expect(Array.from(output.subarray(0, 2))).toEqual([0xff, 0xd8]);
    expect(output.subarray(2, 2 + jfifSegment.length)).toEqual(jfifSegment);
    const before = jpegLayout(input);
    const after = jpegLayout(output);
    expect(before.markers).toEqual([0xe0, 0xe1, 0xe1, 0xed, 0xfe, 0xdb, 0xc0, 0xc4, 0xc4]);
    expect(after.markers).toEqual([0xe0, 0xdb, 0xc0, 0xc4, 0xc4]);
    expect(output.subarray(after.sosAt)).toEqual(input.subarray(before.sosAt));
    expect(output).toEqual(jpegWith([jfifSegment]));
  });

  test("keeps the ICC profile and the Adobe segment, drops the other APPn", () => {
    const icc = jpegSegment(0xe2, concatBytes(ascii("ICC_PROFILE\0"), [1, 1], new Uint8Array(40).fill(7)));
    const adobe = jpegSegment(0xee, concatBytes(ascii("Adobe"), [0, 100, 0, 0, 0, 0, 1]));
    const dropped = [
      jpegSegment(0xe2, concatBytes(ascii("MPF\0"), exifTiff())),
      jpegSegment(0xe3, ascii("Meta")),
      jpegSegment(0xec, ascii("Ducky")),
      jpegSegment(0xee, ascii("NotAdobe")),
      jpegSegment(0xef, ascii("Canon EOS TEST")),
    ];
    const output = stripMetadata(jpegWith([jfifSegment, ...dropped.slice(0, 2), icc, ...dropped.slice(2), adobe]), "jpeg");
    expect(output).toEqual(jpegWith([jfifSegment, icc, adobe]));
  });

  test("walks stuffed bytes, restart markers and the segments between progressive scans", () => {
    // Only the stripper's walk is exercised here: 0xFF 0xD9 inside the first scan is a stuffed
    // 0xFF followed by data, not EOI; the APP1 between the scans goes, and so do the fill bytes.
    const scan = [0x12, 0xff, 0x00, 0xd9, 0xff, 0xd0, 0x34, 0xff, 0xd7, 0x00];
    const dht = Array.from(jpegSegment(0xc4, [0x10, 1, ...new Array<number>(15).fill(0), 0x00]));
    const secondScan = [...jpegSegment(0xda, [1, 1, 0x00, 1, 63, 0]), 0x56, 0xff, 0x00];
    const input = jpegWith([jfifSegment, jpegSegment(0xfe, ascii("GPS"))], [...scan, ...dht, ...jpegSegment(0xe1, ascii("late")), 0xff, 0xff, ...secondScan]);
    const output = stripMetadata(input, "jpeg");
    expect(output).toEqual(jpegWith([jfifSegment], [...scan, ...dht, ...secondScan]));
  });

  test("drops Exif, comments and Photoshop/IPTC between and after the scans of a progressive JPEG", () => {
    const input = progressiveJpeg();
    const found = (bytes: Uint8Array) => progressiveMetadataTexts.filter((text) => latin1(bytes).includes(text));
    expect(found(input)).toEqual(progressiveMetadataTexts);
    const output = stripMetadata(input, "jpeg");
    expect(found(output)).toEqual([]);
    // SOI, JFIF, DQT, SOF2, DRI, DHT, both scans with their stuffing and RST0, the second DHT and
    // EOI: the same file built without the metadata, byte for byte and in the same order.
    expect(output).toEqual(progressiveJpeg(false));
  });

  test("between the scans, the APPn rules of the header apply: ICC kept, MPF and APP15 dropped", () => {
    const icc = jpegSegment(0xe2, concatBytes(ascii("ICC_PROFILE\0"), [1, 1], new Uint8Array(8).fill(7)));
    const tail = (segments: Uint8Array[]) => [0x3f, ...concatBytes(...segments), ...jpegSegment(0xda, [1, 1, 0x00, 1, 63, 0]), 0x7f];
    const input = jpegWith([jfifSegment], tail([jpegSegment(0xe2, ascii("MPF\0")), icc, jpegSegment(0xef, ascii("GPS"))]));
    expect(stripMetadata(input, "jpeg")).toEqual(jpegWith([jfifSegment], tail([icc])));
  });

  test("drops bytes after EOI, where camera trailers live", () => {
    const output = stripMetadata(concatBytes(jpegWithExif(), ascii("Exif trailer from Canon EOS TEST")), "jpeg");
    expect(output).toEqual(jpegWith([jfifSegment]));
  });

  test("rejects a file without a scan, without EOI, or with a bad segment length", () => {
    expectBroken(concatBytes([0xff, 0xd8], jfifSegment, [0xff, 0xd9]), "jpeg");
    expectBroken(jpegWith([jfifSegment]).subarray(0, -2), "jpeg");
    expectBroken(concatBytes([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x01], jfifSegment), "jpeg");
    expectBroken(concatBytes([0xff, 0xd8, 0x00], jpegWith([]).subarray(2)), "jpeg");
  });
});

describe("stripMetadata: PNG", () => {
  test("drops tEXt, iTXt, zTXt, tIME and eXIf; the other chunks stay byte for byte", () => {
    const input = pngWithText();
    const output = stripMetadata(input, "png");
    expect(leftovers(output)).toEqual([]);
    expect(output.subarray(0, 8)).toEqual(pngSignature);
    const kept = pngChunks(input).filter((chunk) => ["IHDR", "pHYs", "IDAT", "IEND"].includes(chunk.type));
    const chunks = pngChunks(output);
    expect(chunks.map((chunk) => chunk.type)).toEqual(["IHDR", "pHYs", "IDAT", "IEND"]);
    chunks.forEach((chunk, i) => expect(chunk.chunk).toEqual(kept[i]!.chunk));
    for (const { chunk } of chunks) {
      const view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      expect(view.getUint32(chunk.length - 4)).toBe(crc32(chunk.subarray(4, -4)));
    }
  });

  test("drops bytes after IEND", () => {
    expect(stripMetadata(concatBytes(pngWithText(), ascii("GPS")), "png")).toEqual(stripMetadata(pngWithText(), "png"));
  });

  test("rejects a chunk longer than the file, a missing IEND, or a first chunk other than IHDR", () => {
    const ihdr = pngChunk("IHDR", [0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]);
    const iend = pngChunk("IEND", []);
    expectBroken(concatBytes(pngSignature, ihdr, [0, 0, 1, 0], ascii("IDAT"), [1, 2, 3], iend), "png");
    expectBroken(concatBytes(pngSignature, ihdr, pngChunk("IDAT", [1])), "png");
    expectBroken(concatBytes(pngSignature, pngChunk("tEXt", ascii("a\0b")), ihdr, iend), "png");
    expectBroken(concatBytes(pngSignature, ihdr, [0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x00, 0, 0, 0, 0]), "png");
  });
});

describe("stripMetadata: WebP", () => {
  test("drops EXIF and XMP, clears their VP8X flags and fixes the RIFF size", () => {
    const input = webpWithExif();
    const output = stripMetadata(input, "webp");
    expect(leftovers(output)).toEqual([]);
    expect(new DataView(output.buffer).getUint32(4, true)).toBe(output.length - 8);
    const chunks = riffChunks(output);
    expect(chunks.map((chunk) => chunk.fourcc)).toEqual(["VP8X", "ALPH", "VP8 "]);
    expect(chunks[0]!.chunk).toEqual(vp8x(0x10));
    expect(chunks[1]!.chunk).toEqual(webpAlph);
    expect(chunks[2]!.chunk).toEqual(webpVp8);
    expect(output).toEqual(webpFrom([vp8x(0x10), webpAlph, webpVp8]));
  });

  test("also strips a simple file without VP8X, and drops bytes after the RIFF", () => {
    const input = concatBytes(webpFrom([webpVp8, riffChunk("EXIF", exifTiff())]), ascii("GPS"));
    expect(stripMetadata(input, "webp")).toEqual(webpFrom([webpVp8]));
  });

  test("rejects a chunk beyond the RIFF, a RIFF beyond the file, and a file without a picture", () => {
    expectBroken(webpFrom([webpVp8, concatBytes(ascii("EXIF"), [200, 0, 0, 0], [1, 2])]), "webp");
    expectBroken(webpWithExif().subarray(0, -1), "webp");
    expectBroken(webpFrom([vp8x(0x08), riffChunk("EXIF", exifTiff())]), "webp");
    expectBroken(webpFrom([riffChunk("EXIF", exifTiff()), webpVp8]), "webp");
  });
});

describe("stripMetadata: GIF", () => {
  test("drops comments and application data other than the loop count, walking colour tables and image data", () => {
    const input = gifWithComment();
    const output = stripMetadata(input, "gif");
    expect(leftovers(output)).toEqual([]);
    // Header, screen descriptor and global table (19 bytes); then the loop extension; then the
    // graphic control extension, image descriptor, local table, image data and trailer (30 bytes).
    expect(output).toEqual(concatBytes(input.subarray(0, 19), gifLoopExtension, input.subarray(-30)));
  });

  test("rejects a GIF without an image or with an unknown block", () => {
    expectBroken(concatBytes(ascii("GIF89a"), [1, 0, 1, 0, 0, 0, 0, 0x3b]), "gif");
    expectBroken(concatBytes(ascii("GIF89a"), [1, 0, 1, 0, 0, 0, 0, 0x00, 0x3b]), "gif");
  });
});

describe("stripMetadata: picture size", () => {
  const sized: [string, ImageType, (width: number, height: number) => Uint8Array][] = [
    ["JPEG, SOF0", "jpeg", (width, height) => jpegWith([jfifSegment], [0x3f], jpegFrame(0xc0, width, height))],
    ["JPEG, SOF2 (progressive)", "jpeg", (width, height) => jpegWith([jfifSegment], [0x3f], jpegFrame(0xc2, width, height))],
    ["JPEG, a second frame header", "jpeg", (width, height) => jpegWith([jpegFrame(0xc0, 8, 8)], [0x3f], jpegFrame(0xc1, width, height))],
    ["PNG, IHDR", "png", pngSized],
    ["GIF, logical screen", "gif", (width, height) => gifSized([width, height], [1, 1])],
    ["GIF, image descriptor", "gif", (width, height) => gifSized([1, 1], [width, height])],
    ["WebP, VP8X canvas", "webp", (width, height) => webpFrom([vp8x(0x10, width, height), webpAlph, webpVp8])],
    ["WebP, VP8 frame", "webp", (width, height) => webpFrom([vp8Frame(width, height)])],
    ["WebP, VP8L frame", "webp", (width, height) => webpFrom([vp8lFrame(width, height)])],
  ];
  const sizes: [number, number, boolean][] = [
    [8000, 8000, true],
    [8001, 8000, false],
    [8000, 8001, false],
  ];

  test("the limit is 8000 pixels a side", () => {
    expect(maxImageSide).toBe(8000);
  });

  test.each(sized.flatMap(([name, type, make]) => sizes.map(([width, height, allowed]) => [name, width, height, allowed, type, make] as const)))(
    "%s declaring %d × %d: allowed %p",
    (_name, width, height, allowed, type, make) => {
      const input = make(width, height);
      if (allowed) expect(stripMetadata(input, type)).toEqual(input);
      else expectTooLarge(input, type);
    },
  );

  test("a JPEG whose frame leaves the height to a DNL after the first scan is judged by the DNL", () => {
    const withLines = (lines: number) => jpegWith([], [0x3f, ...jpegSegment(0xdc, [lines >> 8, lines & 0xff])], jpegFrame(0xc0, 8, 0));
    expect(stripMetadata(withLines(8000), "jpeg")).toEqual(withLines(8000));
    expectTooLarge(withLines(8001), "jpeg");
  });

  test("a header too short to hold the size is broken", () => {
    expectBroken(jpegWith([], [0x3f], jpegSegment(0xc0, [8, 0, 8])), "jpeg");
    expectBroken(concatBytes(pngSignature, pngChunk("IHDR", [0, 0, 0, 1]), pngChunk("IEND", [])), "png");
    expectBroken(webpFrom([riffChunk("VP8 ", [0x14, 0x01, 0x00, 0x9d, 0x01, 0x2a, 0x01])]), "webp");
    expectBroken(webpFrom([riffChunk("VP8L", [0x2f, 0, 0])]), "webp");
  });
});

describe("stripMetadata: broken files", () => {
  test("every truncation of every fixture is a PhotoFormatError", () => {
    for (const [type, make] of samples) {
      const input = make();
      for (let length = 0; length < input.length; length++) expectBroken(input.subarray(0, length), type);
    }
  });

  test("bytes of another format are a PhotoFormatError", () => {
    for (const type of types) {
      for (const other of types) if (other !== type) expectBroken(fixtures[other](), type);
      expectBroken(ascii("hello"), type);
    }
  });
});
