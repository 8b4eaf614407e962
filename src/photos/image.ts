/**
 * Profile photos: recognising the four accepted formats by their content, refusing pictures
 * too large to decode safely (decisions §10) and removing the metadata that can reveal where
 * a photo was taken or with which device (decisions §5), without re-encoding the picture.
 * Every reader below checks its bounds, so a malformed upload ends in a `PhotoFormatError`
 * and nothing else.
 */

import { InvalidInput } from "../errors";

export type ImageType = "jpeg" | "png" | "gif" | "webp";

export const mediaTypes: Record<ImageType, string> = {
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
};

export const extensions: Record<ImageType, string> = {
  jpeg: "jpg",
  png: "png",
  gif: "gif",
  webp: "webp",
};

/** The file is not a well-formed image of the type it claims to be. */
export class PhotoFormatError extends InvalidInput {
  constructor(message = "File gambar rusak atau tidak lengkap.") {
    super(message);
  }
}

/** The largest width and height a picture may declare; decoders allocate by the header, not the file size. */
export const maxImageSide = 8000;

/** The picture declares more pixels than `maxImageSide` allows in a side. */
class PhotoTooLargeError extends PhotoFormatError {
  constructor() {
    super("Ukuran gambar terlalu besar.");
  }
}

const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Whether `text` (ASCII, `\0` allowed) is at `offset`; false rather than a throw past the end. */
function hasAscii(bytes: Uint8Array, offset: number, text: string): boolean {
  if (offset < 0 || offset + text.length > bytes.length) return false;
  for (let i = 0; i < text.length; i++) {
    if (bytes[offset + i] !== text.charCodeAt(i)) return false;
  }
  return true;
}

function hasBytes(bytes: Uint8Array, offset: number, expected: readonly number[]): boolean {
  if (offset + expected.length > bytes.length) return false;
  return expected.every((value, i) => bytes[offset + i] === value);
}

/** Recognises an accepted format by its magic bytes; the file name is never consulted. */
export function sniffImageType(bytes: Uint8Array): ImageType | null {
  if (hasBytes(bytes, 0, [0xff, 0xd8, 0xff])) return "jpeg";
  if (hasBytes(bytes, 0, pngSignature)) return "png";
  if (hasAscii(bytes, 0, "GIF87a") || hasAscii(bytes, 0, "GIF89a")) return "gif";
  if (hasAscii(bytes, 0, "RIFF") && hasAscii(bytes, 8, "WEBP")) return "webp";
  return null;
}

/**
 * A copy of `bytes` without location or device metadata; the image data is copied as is.
 * Throws `PhotoFormatError` when the structure of the file is broken or is not `type`, and
 * its subclass `PhotoTooLargeError` when a header declares a side over `maxImageSide`.
 */
export function stripMetadata(bytes: Uint8Array, type: ImageType): Uint8Array {
  switch (type) {
    case "jpeg":
      return stripJpeg(bytes);
    case "png":
      return stripPng(bytes);
    case "gif":
      return stripGif(bytes);
    case "webp":
      return stripWebp(bytes);
    default:
      // Only reachable from untyped callers.
      throw new PhotoFormatError();
  }
}

// Bounds-checked readers: the only way the strippers look at a byte they have not yet proved is there.

function byteAt(bytes: Uint8Array, offset: number): number {
  const value = bytes[offset];
  if (value === undefined) throw new PhotoFormatError();
  return value;
}

function uint16be(bytes: Uint8Array, offset: number): number {
  return (byteAt(bytes, offset) << 8) | byteAt(bytes, offset + 1);
}

function uint16le(bytes: Uint8Array, offset: number): number {
  return byteAt(bytes, offset) | (byteAt(bytes, offset + 1) << 8);
}

function uint24le(bytes: Uint8Array, offset: number): number {
  return uint16le(bytes, offset) | (byteAt(bytes, offset + 2) << 16);
}

/** Multiplies rather than shifting by 24, which would turn the top bit into a sign. */
function uint32be(bytes: Uint8Array, offset: number): number {
  return uint16be(bytes, offset) * 0x10000 + uint16be(bytes, offset + 2);
}

function uint32le(bytes: Uint8Array, offset: number): number {
  return (
    byteAt(bytes, offset) +
    byteAt(bytes, offset + 1) * 0x100 +
    byteAt(bytes, offset + 2) * 0x10000 +
    byteAt(bytes, offset + 3) * 0x1000000
  );
}

/** Throws unless `end` is within the file, so that `subarray(…, end)` copies what was declared. */
function within(bytes: Uint8Array, end: number): number {
  if (end > bytes.length) throw new PhotoFormatError();
  return end;
}

function checkSize(width: number, height: number): void {
  if (width > maxImageSide || height > maxImageSide) throw new PhotoTooLargeError();
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

// JPEG

/** Reads the marker at `offset`, past any 0xFF fill bytes; `at` is the 0xFF just before its code. */
function readMarker(bytes: Uint8Array, offset: number): { code: number; at: number; next: number } {
  if (byteAt(bytes, offset) !== 0xff) throw new PhotoFormatError();
  let position = offset + 1;
  while (byteAt(bytes, position) === 0xff) position++;
  return { code: byteAt(bytes, position), at: position - 1, next: position + 1 };
}

/** Markers without a length field: TEM, RST0..7, SOI, EOI (and 0x00, which is no marker at all). */
const standalone = (code: number) => code === 0x00 || code === 0x01 || (code >= 0xd0 && code <= 0xd9);

function segmentEnd(bytes: Uint8Array, lengthAt: number): number {
  const length = uint16be(bytes, lengthAt);
  if (length < 2) throw new PhotoFormatError();
  return within(bytes, lengthAt + length);
}

/** APP0 (JFIF), APP2 ICC_PROFILE and APP14 Adobe affect how the picture is shown; other APPn and COM are metadata. */
function keepJpegSegment(bytes: Uint8Array, code: number, payload: number): boolean {
  if (code === 0xe0) return true;
  if (code === 0xe2) return hasAscii(bytes, payload, "ICC_PROFILE\0");
  if (code === 0xee) return hasAscii(bytes, payload, "Adobe");
  return !(code >= 0xe1 && code <= 0xef) && code !== 0xfe;
}

/** The offset of the marker ending entropy-coded data; inside it, 0xFF is followed by a stuffed 0x00 or RSTn. */
function skipEntropyData(bytes: Uint8Array, offset: number): number {
  let position = offset;
  for (;;) {
    const ff = bytes.indexOf(0xff, position);
    if (ff < 0) throw new PhotoFormatError();
    const following = byteAt(bytes, ff + 1);
    if (following !== 0x00 && !(following >= 0xd0 && following <= 0xd7)) return ff;
    position = ff + 2;
  }
}

/** SOF0..SOF15 except DHT, JPG and DAC, and DHP (a hierarchical file's size): the headers that declare a size. */
const declaresFrame = (code: number) => (code >= 0xc0 && code <= 0xcf && code !== 0xc4 && code !== 0xc8 && code !== 0xcc) || code === 0xde;

/** Refuses a frame header (precision, height, width) or DNL (height, set after the first scan) that is too large. */
function checkJpegSize(bytes: Uint8Array, code: number, payload: number, end: number): void {
  if (declaresFrame(code)) {
    if (end < payload + 5) throw new PhotoFormatError();
    checkSize(uint16be(bytes, payload + 3), uint16be(bytes, payload + 1));
  } else if (code === 0xdc) {
    if (end < payload + 2) throw new PhotoFormatError();
    checkSize(0, uint16be(bytes, payload));
  }
}

/**
 * Walks every segment up to EOI, including those between the scans of a progressive file,
 * where metadata may be placed as well; each scan is copied with its entropy-coded data.
 */
function stripJpeg(bytes: Uint8Array): Uint8Array {
  if (!hasBytes(bytes, 0, [0xff, 0xd8])) throw new PhotoFormatError();
  const parts = [bytes.subarray(0, 2)];
  let scanned = false;
  let position = 2;
  for (;;) {
    const marker = readMarker(bytes, position);
    if (marker.code === 0xd9 && scanned) {
      // Bytes after EOI are no part of the picture, and camera trailers (a second image, a video) live there.
      parts.push(bytes.subarray(marker.at, marker.next));
      return concat(parts);
    }
    // EOI before the first scan, a second SOI or a stray RSTn outside a scan: the file is broken.
    if (standalone(marker.code)) throw new PhotoFormatError();
    let end = segmentEnd(bytes, marker.next);
    checkJpegSize(bytes, marker.code, marker.next + 2, end);
    if (marker.code === 0xda) {
      end = skipEntropyData(bytes, end);
      scanned = true;
      parts.push(bytes.subarray(marker.at, end));
    } else if (keepJpegSegment(bytes, marker.code, marker.next + 2)) {
      parts.push(bytes.subarray(marker.at, end));
    }
    position = end;
  }
}

// PNG

const pngMetadataChunks = new Set(["tEXt", "iTXt", "zTXt", "eXIf", "tIME"]);

function isLetter(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

function stripPng(bytes: Uint8Array): Uint8Array {
  if (!hasBytes(bytes, 0, pngSignature)) throw new PhotoFormatError();
  const parts = [bytes.subarray(0, 8)];
  let position = 8;
  for (;;) {
    const length = uint32be(bytes, position);
    const typeBytes = [4, 5, 6, 7].map((i) => byteAt(bytes, position + i));
    // 2^31 - 1 is the PNG limit; chunk types are four ASCII letters, anything else is garbage.
    if (length > 0x7fffffff || !typeBytes.every(isLetter)) throw new PhotoFormatError();
    const type = String.fromCharCode(...typeBytes);
    if (position === 8 && type !== "IHDR") throw new PhotoFormatError();
    const end = within(bytes, position + 12 + length);
    if (type === "IHDR") {
      if (length !== 13) throw new PhotoFormatError();
      checkSize(uint32be(bytes, position + 8), uint32be(bytes, position + 12));
    }
    if (!pngMetadataChunks.has(type)) parts.push(bytes.subarray(position, end));
    position = end;
    // Whatever follows IEND is not part of the image; it is left behind like the text chunks.
    if (type === "IEND") return concat(parts);
  }
}

// WebP

/** A key frame's header: 3-byte frame tag, start code 9D 01 2A, then 14-bit width and height (2 bits of scaling each). */
function vp8Size(bytes: Uint8Array, payload: number, size: number): [number, number] {
  if (size < 10 || !hasBytes(bytes, payload + 3, [0x9d, 0x01, 0x2a])) throw new PhotoFormatError();
  return [uint16le(bytes, payload + 6) & 0x3fff, uint16le(bytes, payload + 8) & 0x3fff];
}

/** The signature 0x2F, then 14 bits of width minus one and 14 bits of height minus one. */
function vp8lSize(bytes: Uint8Array, payload: number, size: number): [number, number] {
  if (size < 5 || byteAt(bytes, payload) !== 0x2f) throw new PhotoFormatError();
  const bits = uint32le(bytes, payload + 1);
  return [(bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1];
}

const vp8xExifFlag = 0x08;
const vp8xXmpFlag = 0x04;

function stripWebp(bytes: Uint8Array): Uint8Array {
  if (!hasAscii(bytes, 0, "RIFF") || !hasAscii(bytes, 8, "WEBP")) throw new PhotoFormatError();
  const riffEnd = within(bytes, 8 + uint32le(bytes, 4));
  const parts: Uint8Array[] = [];
  let kept = 12;
  let vp8xFlagsAt = -1;
  let hasPicture = false;
  let position = 12;
  while (position < riffEnd) {
    const fourcc = String.fromCharCode(...[0, 1, 2, 3].map((i) => byteAt(bytes, position + i)));
    const size = uint32le(bytes, position + 4);
    // Chunks are padded to an even size, and none may reach past the size the RIFF header declares.
    const next = position + 8 + size + (size & 1);
    if (next > riffEnd) throw new PhotoFormatError();
    if (position === 12 && !["VP8 ", "VP8L", "VP8X"].includes(fourcc)) throw new PhotoFormatError();
    if (fourcc === "VP8X") {
      if (position !== 12 || size < 10) throw new PhotoFormatError();
      vp8xFlagsAt = kept + 8;
      // The canvas of a still or animated picture, each side stored minus one.
      checkSize(uint24le(bytes, position + 12) + 1, uint24le(bytes, position + 15) + 1);
    }
    if (fourcc === "VP8 ") checkSize(...vp8Size(bytes, position + 8, size));
    if (fourcc === "VP8L") checkSize(...vp8lSize(bytes, position + 8, size));
    if (["VP8 ", "VP8L", "ANMF"].includes(fourcc)) hasPicture = true;
    if (fourcc !== "EXIF" && fourcc !== "XMP ") {
      parts.push(bytes.subarray(position, next));
      kept += next - position;
    }
    position = next;
  }
  if (!hasPicture) throw new PhotoFormatError();
  const out = concat([bytes.subarray(0, 12), ...parts]);
  new DataView(out.buffer).setUint32(4, out.length - 8, true);
  // The flags announce EXIF/XMP chunks; left set, readers would look for chunks that are gone.
  if (vp8xFlagsAt >= 0) out[vp8xFlagsAt] = byteAt(out, vp8xFlagsAt) & ~(vp8xExifFlag | vp8xXmpFlag);
  return out;
}

// GIF

/** The offset just past the terminator of a run of data sub-blocks starting at `offset`. */
function skipSubBlocks(bytes: Uint8Array, offset: number): number {
  let position = offset;
  for (;;) {
    const size = byteAt(bytes, position);
    position += 1 + size;
    if (size === 0) return position;
  }
}

/** 3 bytes per entry, 2^(n+1) entries, when the packed field's top bit says a table follows. */
const colourTableSize = (packed: number) => (packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0);

/** Only the looping extensions change how the picture plays; XMP and other application data go. */
function keepGifApplication(bytes: Uint8Array, blockAt: number): boolean {
  return (
    byteAt(bytes, blockAt + 2) === 11 &&
    (hasAscii(bytes, blockAt + 3, "NETSCAPE2.0") || hasAscii(bytes, blockAt + 3, "ANIMEXTS1.0"))
  );
}

function stripGif(bytes: Uint8Array): Uint8Array {
  if (!hasAscii(bytes, 0, "GIF87a") && !hasAscii(bytes, 0, "GIF89a")) throw new PhotoFormatError();
  // Header (6) and logical screen descriptor (7), then the global colour table.
  const headerEnd = within(bytes, 13 + colourTableSize(byteAt(bytes, 10)));
  checkSize(uint16le(bytes, 6), uint16le(bytes, 8));
  const parts = [bytes.subarray(0, headerEnd)];
  let images = 0;
  let position = headerEnd;
  for (;;) {
    const introducer = byteAt(bytes, position);
    if (introducer === 0x3b) {
      if (images === 0) throw new PhotoFormatError();
      // As with JPEG and PNG, bytes after the trailer are dropped.
      parts.push(bytes.subarray(position, position + 1));
      return concat(parts);
    }
    let end: number;
    let keep = true;
    if (introducer === 0x2c) {
      // Image descriptor (10 bytes: left, top, width, height, packed), local colour table, LZW minimum code size, image data.
      checkSize(uint16le(bytes, position + 5), uint16le(bytes, position + 7));
      end = skipSubBlocks(bytes, position + 10 + colourTableSize(byteAt(bytes, position + 9)) + 1);
      images++;
    } else if (introducer === 0x21) {
      const label = byteAt(bytes, position + 1);
      end = skipSubBlocks(bytes, position + 2);
      keep = label !== 0xfe && (label !== 0xff || keepGifApplication(bytes, position));
    } else {
      throw new PhotoFormatError();
    }
    if (keep) parts.push(bytes.subarray(position, end));
    position = end;
  }
}
