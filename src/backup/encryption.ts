import { kdfCostRange } from "../config";
import { createCipheriv, createDecipheriv, createHmac, randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { open } from "node:fs/promises";
import { invalid } from "../errors";

/**
 * Encrypted backups (decisions §17): AES-256-GCM over the plain archive, the key derived
 * with scrypt from a passphrase. The file is
 *
 *     "SKRENC01"  8 bytes: what it is
 *     u32 BE      the header's length
 *     header      JSON: kdf parameters, salt, nonce prefix, chunk size, passphrase check
 *     chunks      each the next `chunk` bytes of the archive (the last one shorter, maybe
 *                 empty), encrypted, followed by its 16-byte tag
 *
 * Each chunk's nonce is the header's 8-byte prefix and the chunk's number; its additional
 * data is the header, its number and whether it is the last. So a changed byte anywhere,
 * chunks swapped, dropped or cut off, or another header, all fail a tag; a wrong passphrase
 * fails the header's check first, with its own message. Archives are read and written as
 * streams: nothing decrypted is given out before its tag has been checked.
 */

const magic = Buffer.from("SKRENC01", "latin1");
const chunkSize = 1024 * 1024;
const tagLength = 16;
/** scrypt's r and p; N is 2^cost (config's backupKdfCost: 2^15 × 8 × 128 B = 32 MB of memory, about a tenth of a second). */
const scryptShape = { r: 8, p: 1 } as const;
const maxHeaderLength = 4096;
/** The variable a command reads the passphrase from, and through which serve gives it to its backup child process. */
export const passphraseVariable = "SKRINING_BACKUP_PASSPHRASE";
/** A passphrase shorter than this is refused when it is set (what a person can still type and keep). */
export const minimumPassphraseLength = 12;

export const encryptionMessages = {
  tooShort: `Passphrase cadangan minimal ${minimumPassphraseLength} karakter.`,
  wrongPassphrase: (archive: string) => `Passphrase salah untuk ${archive}; tidak ada yang dipulihkan.`,
  damaged: (archive: string) => `${archive} terenkripsi tetapi tidak utuh: ada byte yang diubah, ditukar atau terpotong. Tidak ada yang dipulihkan.`,
  notEncryptedHeader: (archive: string) => `${archive}: kepala arsip terenkripsi tidak dapat dibaca.`,
  plainWhereEncrypted: (archive: string, why: string) =>
    `${archive} tidak terenkripsi, padahal ${why}: arsip polos dapat diubah siapa saja tanpa ketahuan (misalnya hash password seorang admin ditukar), jadi tidak ada yang dipulihkan. ` +
    "Bila arsip polos ini memang yang dimaksud dan asalnya Anda ketahui, pulihkan dengan restore --allow-plain.",
} as const;

/**
 * Why an encrypted archive is expected (decisions §21), or null: its name ends in `.enc`,
 * or a passphrase was given for it. A plain archive there is refused unless allowed: it
 * may be a forged one put where the encrypted one was.
 */
export function encryptionExpected(archive: string, passphraseGiven: boolean): string | null {
  if (archive.toLowerCase().endsWith(".enc")) return "namanya berakhiran .enc";
  if (passphraseGiven) return "passphrase diberikan untuknya";
  return null;
}

interface Header {
  format: "skrining-backup-encrypted";
  version: 1;
  kdf: "scrypt";
  N: number;
  r: number;
  p: number;
  salt: string;
  cipher: "aes-256-gcm";
  noncePrefix: string;
  chunk: number;
  /** HMAC-SHA256(key, "passphrase-check"), base64: tells a wrong passphrase from a damaged archive. */
  check: string;
}

function deriveKey(passphrase: string, salt: Buffer, parameters: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(passphrase.normalize("NFC"), salt, 32, { ...parameters, maxmem: 256 * parameters.N * parameters.r }, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

const passphraseCheck = (key: Buffer) => createHmac("sha256", key).update("skrining-backup-passphrase-check").digest();

function nonceOf(prefix: Buffer, index: number): Buffer {
  const nonce = Buffer.alloc(12);
  prefix.copy(nonce, 0);
  nonce.writeUInt32BE(index, 8);
  return nonce;
}

function additionalData(header: Buffer, index: number, last: boolean): Buffer {
  const tail = Buffer.alloc(5);
  tail.writeUInt32BE(index, 0);
  tail[4] = last ? 1 : 0;
  return Buffer.concat([header, tail]);
}

/** Whether a file starts as an encrypted archive does. */
export async function isEncryptedArchive(path: string): Promise<boolean> {
  const handle = await open(path, "r");
  try {
    const start = Buffer.alloc(magic.length);
    const { bytesRead } = await handle.read(start, 0, start.length, 0);
    return bytesRead === magic.length && start.equals(magic);
  } finally {
    await handle.close();
  }
}

/** A passphrase's rule, the same wherever one is set. */
export function checkNewPassphrase(passphrase: string): string {
  if ([...passphrase].length < minimumPassphraseLength || passphrase.trim() === "") throw invalid(encryptionMessages.tooShort);
  return passphrase;
}

/**
 * Encrypts a stream of archive bytes: the header first, then the chunks. The key is
 * derived once per archive, with a fresh salt.
 */
export async function* encrypt(plain: AsyncIterable<Buffer>, passphrase: string, kdfCost: number): AsyncGenerator<Buffer> {
  const salt = randomBytes(16);
  const noncePrefix = randomBytes(8);
  const scryptParameters = { N: 2 ** kdfCost, ...scryptShape };
  const key = await deriveKey(passphrase, salt, scryptParameters);
  const header: Header = {
    format: "skrining-backup-encrypted",
    version: 1,
    kdf: "scrypt",
    ...scryptParameters,
    salt: salt.toString("base64"),
    cipher: "aes-256-gcm",
    noncePrefix: noncePrefix.toString("base64"),
    chunk: chunkSize,
    check: passphraseCheck(key).toString("base64"),
  };
  const headerBytes = Buffer.from(JSON.stringify(header));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(headerBytes.length);
  yield Buffer.concat([magic, length, headerBytes]);

  const sealed = (bytes: Buffer, index: number, last: boolean) => {
    const cipher = createCipheriv("aes-256-gcm", key, nonceOf(noncePrefix, index));
    cipher.setAAD(additionalData(headerBytes, index, last));
    return Buffer.concat([cipher.update(bytes), cipher.final(), cipher.getAuthTag()]);
  };
  // The small pieces a compressor gives are joined once per chunk, not once per piece.
  let pending: Buffer[] = [];
  let pendingLength = 0;
  let index = 0;
  for await (const bytes of plain) {
    pending.push(bytes);
    pendingLength += bytes.length;
    // A full chunk is sealed only once more bytes follow it: the last chunk must say it is the last.
    while (pendingLength > chunkSize) {
      const joined = Buffer.concat(pending, pendingLength);
      yield sealed(joined.subarray(0, chunkSize), index++, false);
      pending = [joined.subarray(chunkSize)];
      pendingLength -= chunkSize;
    }
  }
  yield sealed(Buffer.concat(pending, pendingLength), index, true);
}

/** Reads exactly `length` bytes from a byte stream (fewer only at its end). */
class ByteReader {
  private buffered: Buffer[] = [];
  private size = 0;
  private done = false;
  private readonly source: AsyncIterator<Buffer>;

  constructor(source: AsyncIterable<Buffer>) {
    this.source = source[Symbol.asyncIterator]();
  }

  async read(length: number): Promise<Buffer> {
    while (this.size < length && !this.done) {
      const next = await this.source.next();
      if (next.done) this.done = true;
      else {
        this.buffered.push(next.value);
        this.size += next.value.length;
      }
    }
    const all = Buffer.concat(this.buffered);
    const taken = all.subarray(0, length);
    const rest = all.subarray(length);
    this.buffered = rest.length > 0 ? [rest] : [];
    this.size = rest.length;
    return taken;
  }
}

/** A passphrase's key for one archive's header, derived once and used by every pass over it. */
export interface ArchiveKey {
  header: Buffer;
  key: Buffer;
  noncePrefix: Buffer;
  chunk: number;
}

function parseHeader(bytes: Buffer, archive: string): Header {
  try {
    const header = JSON.parse(bytes.toString("utf8")) as Header;
    const sane =
      header.format === "skrining-backup-encrypted" &&
      header.version === 1 &&
      header.kdf === "scrypt" &&
      header.cipher === "aes-256-gcm" &&
      [header.N, header.r, header.p, header.chunk].every(Number.isSafeInteger) &&
      header.N >= 2 ** kdfCostRange.lowest &&
      header.N <= 2 ** kdfCostRange.highest &&
      header.r >= 1 &&
      header.r <= 32 &&
      header.p >= 1 &&
      header.p <= 4 &&
      header.chunk >= 1024 &&
      header.chunk <= 16 * 1024 * 1024;
    if (sane) return header;
  } catch {
    // Said below.
  }
  throw invalid(encryptionMessages.notEncryptedHeader(archive));
}

/** Reads the header of an encrypted archive and derives its key; a wrong passphrase is refused here. */
export async function unlockArchive(path: string, passphrase: string): Promise<ArchiveKey> {
  const handle = await open(path, "r");
  let headerBytes: Buffer;
  try {
    const start = Buffer.alloc(magic.length + 4);
    const { bytesRead } = await handle.read(start, 0, start.length, 0);
    const length = bytesRead === start.length ? start.readUInt32BE(magic.length) : 0;
    if (!start.subarray(0, magic.length).equals(magic) || length === 0 || length > maxHeaderLength) throw invalid(encryptionMessages.notEncryptedHeader(path));
    headerBytes = Buffer.alloc(length);
    if ((await handle.read(headerBytes, 0, length, start.length)).bytesRead !== length) throw invalid(encryptionMessages.notEncryptedHeader(path));
  } finally {
    await handle.close();
  }
  const header = parseHeader(headerBytes, path);
  const key = await deriveKey(passphrase, Buffer.from(header.salt, "base64"), header);
  const expected = Buffer.from(header.check, "base64");
  const actual = passphraseCheck(key);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) throw invalid(encryptionMessages.wrongPassphrase(path));
  return { header: headerBytes, key, noncePrefix: Buffer.from(header.noncePrefix, "base64"), chunk: header.chunk };
}

/**
 * The archive's plain bytes, each chunk given out only after its tag was checked. Any
 * failure (a changed byte, a chunk missing or cut short, bytes after the last chunk) is a
 * refusal naming the archive.
 */
export async function* decrypt(encrypted: AsyncIterable<Buffer>, unlocked: ArchiveKey, archive: string): AsyncGenerator<Buffer> {
  const reader = new ByteReader(encrypted);
  const prefix = await reader.read(magic.length + 4 + unlocked.header.length);
  if (!prefix.subarray(magic.length + 4).equals(unlocked.header)) throw invalid(encryptionMessages.damaged(archive));
  const sealedLength = unlocked.chunk + tagLength;
  let current = await reader.read(sealedLength);
  for (let index = 0; ; index++) {
    if (current.length < tagLength) throw invalid(encryptionMessages.damaged(archive));
    // A full chunk is the last only when nothing follows it.
    const next = current.length === sealedLength ? await reader.read(sealedLength) : Buffer.alloc(0);
    const last = next.length === 0;
    const decipher = createDecipheriv("aes-256-gcm", unlocked.key, nonceOf(unlocked.noncePrefix, index));
    decipher.setAAD(additionalData(unlocked.header, index, last));
    decipher.setAuthTag(current.subarray(current.length - tagLength));
    let plain: Buffer;
    try {
      plain = Buffer.concat([decipher.update(current.subarray(0, current.length - tagLength)), decipher.final()]);
    } catch {
      throw invalid(encryptionMessages.damaged(archive));
    }
    if (plain.length > 0) yield plain;
    if (last) return;
    current = next;
  }
}
