import type { ImageType } from "../../src/photos/image";
import { crc32, deflateSync } from "node:zlib";

/**
 * Small but real images carrying the kinds of metadata that decisions §5 removes, assembled
 * byte by byte (no image library is available). The picture data is genuine: a 1×1 PNG, an 8×8
 * baseline JPEG with its own Huffman tables, the 1×1 WebP from Google's WebP FAQ and a 1×1 GIF.
 */

/** Texts that only occur in the metadata of the fixtures: none may survive stripping. */
export const metadataTexts = ["Exif", "GPS", "Canon EOS TEST", "Jakarta", "xmpmeta", "Photoshop"];

export const ascii = (text: string) => new TextEncoder().encode(text);

export function concatBytes(...parts: (Uint8Array | number[])[]): Uint8Array {
  const arrays = parts.map((part) => (part instanceof Uint8Array ? part : Uint8Array.from(part)));
  const out = new Uint8Array(arrays.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of arrays) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

const u16be = (value: number) => [value >> 8, value & 0xff];
const u16le = (value: number) => u16be(value).reverse();
const u32be = (value: number) => [(value >>> 24) & 0xff, (value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff];
const u32le = (value: number) => u32be(value).reverse();

// Exif (TIFF) and XMP, shared by the formats that carry them.

interface IfdEntry {
  tag: number;
  type: number;
  count: number;
  value: Uint8Array;
}

const asciiEntry = (tag: number, text: string): IfdEntry => ({ tag, type: 2, count: text.length + 1, value: ascii(`${text}\0`) });
const rationalEntry = (tag: number, values: number[]): IfdEntry => ({
  tag,
  type: 5,
  count: values.length,
  value: concatBytes(...values.flatMap((value) => [u32be(value), u32be(1)])),
});

/** A big-endian IFD placed at `offset`, its values longer than 4 bytes right after it. */
function ifd(entries: IfdEntry[], offset: number): Uint8Array {
  const tableSize = 2 + entries.length * 12 + 4;
  const external = entries.filter((entry) => entry.value.length > 4);
  const out = new Uint8Array(tableSize + external.reduce((total, entry) => total + entry.value.length + (entry.value.length & 1), 0));
  const view = new DataView(out.buffer);
  view.setUint16(0, entries.length);
  let valueAt = tableSize;
  entries.forEach((entry, i) => {
    const at = 2 + i * 12;
    view.setUint16(at, entry.tag);
    view.setUint16(at + 2, entry.type);
    view.setUint32(at + 4, entry.count);
    if (entry.value.length <= 4) {
      out.set(entry.value, at + 8);
    } else {
      view.setUint32(at + 8, offset + valueAt);
      out.set(entry.value, valueAt);
      valueAt += entry.value.length + (entry.value.length & 1);
    }
  });
  return out;
}

/** Exif as a phone writes it: camera make and model, and a GPS IFD placing the photo in Jakarta. */
export function exifTiff(): Uint8Array {
  const ifd0 = (gpsOffset: number) =>
    ifd([asciiEntry(0x010f, "Canon"), asciiEntry(0x0110, "Canon EOS TEST"), { tag: 0x8825, type: 4, count: 1, value: Uint8Array.from(u32be(gpsOffset)) }], 8);
  const gpsOffset = 8 + ifd0(0).length;
  const gps = ifd(
    [
      { tag: 0x0000, type: 1, count: 4, value: Uint8Array.from([2, 2, 0, 0]) },
      asciiEntry(0x0001, "S"),
      rationalEntry(0x0002, [6, 12, 0]),
      asciiEntry(0x0003, "E"),
      rationalEntry(0x0004, [106, 49, 0]),
      // GPSProcessingMethod: an UNDEFINED value with a character-code prefix, as Android writes it.
      { tag: 0x001b, type: 7, count: 11, value: ascii("ASCII\0\0\0GPS") },
    ],
    gpsOffset,
  );
  return concatBytes(ascii("MM\0\x2a"), u32be(8), ifd0(gpsOffset), gps);
}

export const xmpPacket = ascii(
  '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">' +
    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about=""' +
    ' xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:tiff="http://ns.adobe.com/tiff/1.0/"' +
    ' exif:GPSLatitude="6,12.0S" exif:GPSLongitude="106,49.0E" tiff:Model="Canon EOS TEST"/>' +
    '</rdf:RDF></x:xmpmeta><?xpacket end="w"?>',
);

// JPEG

export function jpegSegment(marker: number, payload: Uint8Array | number[]): Uint8Array {
  const body = payload instanceof Uint8Array ? payload : Uint8Array.from(payload);
  return concatBytes([0xff, marker], u16be(body.length + 2), body);
}

export const jfifSegment = jpegSegment(0xe0, concatBytes(ascii("JFIF\0"), [1, 1, 0, 0, 1, 0, 1, 0, 0]));

/** A one-component 8-bit frame header (SOFn) declaring `width` × `height`. */
export const jpegFrame = (marker: number, width: number, height: number) =>
  jpegSegment(marker, [8, ...u16be(height), ...u16be(width), 1, 1, 0x11, 0]);

const jpegQuantTable = jpegSegment(0xdb, [0x00, ...new Array<number>(64).fill(1)]);

/**
 * An 8×8 grey baseline JPEG with the given segments between SOI and the tables. Each Huffman
 * table holds one symbol with the 1-bit code "0": DC difference 0 then end-of-block, two bits
 * padded with ones, is the one scan byte 0x3F. `frame` replaces the SOF0 header, e.g. to
 * declare another size (the scan then no longer matches it).
 */
export function jpegWith(segments: Uint8Array[], scan: number[] = [0x3f], frame = jpegFrame(0xc0, 8, 8)): Uint8Array {
  const huffman = (tableClass: number) => jpegSegment(0xc4, [tableClass, 1, ...new Array<number>(15).fill(0), 0x00]);
  const sos = jpegSegment(0xda, [1, 1, 0x00, 0, 63, 0]);
  return concatBytes([0xff, 0xd8], ...segments, jpegQuantTable, frame, huffman(0x00), huffman(0x10), sos, scan, [0xff, 0xd9]);
}

/** The texts in the metadata of `progressiveJpeg`, part of it placed between and after the scans. */
export const progressiveMetadataTexts = ["Exif", "GPS-SECRET", "device-name", "Photoshop", "Jakarta"];

/**
 * A 16×8 grey progressive JPEG (two blocks, a restart after each): a DC scan, then an AC scan.
 * The DC table codes category 0 as "0" and category 8 as "10": the left block's DC of 255 is
 * "10 11111111", padded to 0xBF 0xFF, which is stuffed to 0xBF 0xFF 0x00; RST0 follows, and the
 * right block's DC difference 0 is 0x7F. The AC table codes end-of-band as "0", 0x7F per block.
 * With `metadata`, Exif and a comment sit between the scans and Photoshop/IPTC after the last.
 */
export function progressiveJpeg(metadata = true): Uint8Array {
  const late = (segment: Uint8Array) => (metadata ? [segment] : []);
  const exif = concatBytes(ascii("Exif\0\0MM\0\x2a"), u32be(8), ifd([asciiEntry(0x010e, "GPS-SECRET")], 8));
  return concatBytes(
    [0xff, 0xd8],
    jfifSegment,
    jpegQuantTable,
    jpegFrame(0xc2, 16, 8),
    jpegSegment(0xdd, u16be(1)),
    jpegSegment(0xc4, [0x00, 1, 1, ...new Array<number>(14).fill(0), 0x00, 0x08]),
    jpegSegment(0xda, [1, 1, 0x00, 0, 0, 0]),
    [0xbf, 0xff, 0x00, 0xff, 0xd0, 0x7f],
    ...late(jpegSegment(0xe1, exif)),
    ...late(jpegSegment(0xfe, ascii("device-name"))),
    jpegSegment(0xc4, [0x10, 1, ...new Array<number>(15).fill(0), 0x00]),
    jpegSegment(0xda, [1, 1, 0x00, 1, 63, 0]),
    [0x7f, 0xff, 0xd0, 0x7f],
    ...late(jpegSegment(0xed, photoshopIptc())),
    [0xff, 0xd9],
  );
}

/** Photoshop IRB holding an IPTC record with the city (2:90). */
function photoshopIptc(): Uint8Array {
  const iptc = concatBytes([0x1c, 0x02, 0x5a], u16be(7), ascii("Jakarta"));
  return concatBytes(ascii("Photoshop 3.0\0"), ascii("8BIM"), u16be(0x0404), [0, 0], u32be(iptc.length), iptc, iptc.length & 1 ? [0] : []);
}

/** A profile photo upload as a browser sends it: a small valid JPEG in the `foto` field. */
export function photoForm(): FormData {
  const form = new FormData();
  form.append("foto", new File([jpegWith([jfifSegment]) as Uint8Array<ArrayBuffer>], "foto.jpg"));
  return form;
}

export function jpegWithExif(): Uint8Array {
  return jpegWith([
    jfifSegment,
    jpegSegment(0xe1, concatBytes(ascii("Exif\0\0"), exifTiff())),
    jpegSegment(0xe1, concatBytes(ascii("http://ns.adobe.com/xap/1.0/\0"), xmpPacket)),
    jpegSegment(0xed, photoshopIptc()),
    jpegSegment(0xfe, ascii("Jakarta, Canon EOS TEST")),
  ]);
}

// PNG

export function pngChunk(type: string, data: Uint8Array | number[]): Uint8Array {
  const body = concatBytes(ascii(type), data instanceof Uint8Array ? data : Uint8Array.from(data));
  return concatBytes(u32be(body.length - 4), body, u32be(crc32(body)));
}

export const pngSignature = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** One orange RGB pixel: IHDR, pHYs and IDAT are the chunks that must come out unchanged. */
export function pngWithText(): Uint8Array {
  return concatBytes(
    pngSignature,
    pngChunk("IHDR", [...u32be(1), ...u32be(1), 8, 2, 0, 0, 0]),
    pngChunk("pHYs", [...u32be(2835), ...u32be(2835), 1]),
    pngChunk("tEXt", ascii("Location\0Jakarta")),
    pngChunk("iTXt", concatBytes(ascii("XML:com.adobe.xmp\0\0\0\0\0"), xmpPacket)),
    pngChunk("tIME", [...u16be(2024), 5, 17, 8, 30, 0]),
    pngChunk("eXIf", exifTiff()),
    pngChunk("IDAT", deflateSync(Uint8Array.from([0, 0xff, 0x80, 0x00]))),
    pngChunk("zTXt", concatBytes(ascii("Comment\0\0"), deflateSync(ascii("Canon EOS TEST")))),
    pngChunk("IEND", []),
  );
}

/** A PNG whose IHDR declares `width` × `height` over the pixel data of one pixel: only the header counts. */
export function pngSized(width: number, height: number): Uint8Array {
  return concatBytes(
    pngSignature,
    pngChunk("IHDR", [...u32be(width), ...u32be(height), 8, 2, 0, 0, 0]),
    pngChunk("IDAT", deflateSync(Uint8Array.from([0, 0xff, 0x80, 0x00]))),
    pngChunk("IEND", []),
  );
}

// WebP

export function riffChunk(fourcc: string, data: Uint8Array | number[]): Uint8Array {
  const body = data instanceof Uint8Array ? data : Uint8Array.from(data);
  return concatBytes(ascii(fourcc), u32le(body.length), body, body.length & 1 ? [0] : []);
}

export function webpFrom(chunks: Uint8Array[]): Uint8Array {
  const body = concatBytes(ascii("WEBP"), ...chunks);
  return concatBytes(ascii("RIFF"), u32le(body.length), body);
}

/**
 * The VP8 chunk of the 1×1 "alpha" test image in Google's WebP FAQ; other sizes only change
 * the key frame header (frame tag, start code, then 14-bit width and height).
 */
export const vp8Frame = (width: number, height: number) =>
  riffChunk("VP8 ", [
    ...[0x14, 0x01, 0x00, 0x9d, 0x01, 0x2a, ...u16le(width), ...u16le(height)],
    ...[0x00, 0x00, 0xfe, 0x00, 0x00, 0x0d, 0xc0, 0x00, 0xfe, 0xe6, 0xb5, 0x00, 0x00, 0x00],
  ]);

/** The ALPH and VP8 chunks of the 1×1 "alpha" test image in Google's WebP FAQ. */
export const webpAlph = riffChunk("ALPH", [0x11, 0x07, 0x10, 0x11, 0xfd, 0x0f, 0x44, 0x44, 0xff, 0x03, 0x00, 0x00]);
export const webpVp8 = vp8Frame(1, 1);

/**
 * The VP8L chunk of the 1×1 "lossless" test image in Google's WebP FAQ; other sizes only change
 * the header after the 0x2F signature: 14 bits width minus one, 14 bits height minus one, alpha.
 */
export const vp8lFrame = (width: number, height: number) =>
  riffChunk("VP8L", [0x2f, ...u32le((width - 1) | ((height - 1) << 14) | (1 << 28)), 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xfe, 0x07]);

/** VP8X flags: ICC 0x20, alpha 0x10, EXIF 0x08, XMP 0x04, animation 0x02. The canvas size is stored minus one. */
export const vp8x = (flags: number, width = 1, height = 1) =>
  riffChunk("VP8X", [flags, 0, 0, 0, ...u32le(width - 1).slice(0, 3), ...u32le(height - 1).slice(0, 3)]);

export function webpWithExif(): Uint8Array {
  return webpFrom([vp8x(0x10 | 0x08 | 0x04), webpAlph, webpVp8, riffChunk("EXIF", exifTiff()), riffChunk("XMP ", xmpPacket)]);
}

// GIF

/** Data sub-blocks of at most 255 bytes and the zero-length terminator. */
export function gifSubBlocks(data: Uint8Array): Uint8Array {
  const blocks: (Uint8Array | number[])[] = [];
  for (let offset = 0; offset < data.length; offset += 255) {
    const block = data.subarray(offset, offset + 255);
    blocks.push([block.length], block);
  }
  return concatBytes(...blocks, [0]);
}

/** XMP in GIF (XMP spec part 3): the raw packet, then a 258-byte trailer that any sub-block walk lands in. */
function gifXmpExtension(): Uint8Array {
  const trailer = [0x01, ...Array.from({ length: 255 }, (_, i) => 0xff - i), 0x00, 0x00];
  return concatBytes([0x21, 0xff, 11], ascii("XMP DataXMP"), xmpPacket, trailer);
}

/** The loop count extension, kept because it is what makes an animation repeat. */
export const gifLoopExtension = concatBytes([0x21, 0xff, 11], ascii("NETSCAPE2.0"), [3, 1, 0, 0, 0]);

/**
 * A 1×1 GIF89a with global and local two-colour tables; the LZW data (minimum code size 2:
 * clear, index 0, end) is the classic 0x44 0x01.
 */
export function gifWithComment(): Uint8Array {
  return concatBytes(
    ascii("GIF89a"),
    // Logical screen: width and height 1 (little-endian), a global table, background 0, no aspect.
    [1, 0, 1, 0, 0x80, 0, 0],
    [0xff, 0xff, 0xff, 0x00, 0x00, 0x00],
    gifLoopExtension,
    gifXmpExtension(),
    [0x21, 0xfe],
    gifSubBlocks(ascii("Jakarta, Canon EOS TEST")),
    [0x21, 0xf9, 4, 0, 0, 0, 0, 0],
    [0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0x80],
    [0x20, 0x60, 0xc0, 0x00, 0x00, 0x00],
    [2, 2, 0x44, 0x01, 0],
    [0x3b],
  );
}

/** A GIF whose logical screen and one image declare the given sizes, over the pixel data of one pixel. */
export function gifSized(screen: [number, number], image: [number, number]): Uint8Array {
  return concatBytes(
    ascii("GIF89a"),
    [...u16le(screen[0]), ...u16le(screen[1]), 0x80, 0, 0],
    [0xff, 0xff, 0xff, 0x00, 0x00, 0x00],
    [0x2c, 0, 0, 0, 0, ...u16le(image[0]), ...u16le(image[1]), 0x00],
    [2, 2, 0x44, 0x01, 0],
    [0x3b],
  );
}

/** One picture of each type with metadata to strip. */
export const fixtures: Record<ImageType, () => Uint8Array> = { jpeg: jpegWithExif, png: pngWithText, webp: webpWithExif, gif: gifWithComment };
export const types = Object.keys(fixtures) as ImageType[];
/** Every fixture with its type, the progressive JPEG included, for the tests of broken input. */
export const samples: [ImageType, () => Uint8Array][] = [...types.map((type) => [type, fixtures[type]] as [ImageType, () => Uint8Array]), ["jpeg", progressiveJpeg]];
