import { beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { checkNewPassphrase, decrypt, encrypt, isEncryptedArchive, unlockArchive } from "../../src/backup/encryption";
import { temporaryDir } from "../helpers";

// Decisions §17: AES-256-GCM with a scrypt key; any changed byte, a wrong passphrase, a cut
// or reordered archive is refused, and nothing decrypted is given out before its tag is checked.

const passphrase = "kunci cadangan fakultas 2026";
/** The cheapest cost a reader accepts (SKRINING_BACKUP_KDF_COST in every test): a key in 3 ms instead of 100. */
const kdfCost = 10;
const megabyte = 1024 * 1024;

async function* chunks(bytes: Buffer, size = 65_536): AsyncGenerator<Buffer> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function collect(stream: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part);
  return Buffer.concat(parts);
}

/** The archive `plain` encrypted into a file; its path. */
async function encryptedFile(plain: Buffer): Promise<string> {
  const path = join(temporaryDir("skrining-enc-"), "cadangan.tar.gz.enc");
  writeFileSync(path, await collect(encrypt(chunks(plain), passphrase, kdfCost)));
  return path;
}

async function decryptFile(path: string, bytes: Buffer, key = passphrase): Promise<Buffer> {
  return collect(decrypt(chunks(bytes), await unlockArchive(path, key), path));
}

const headerEnd = (bytes: Buffer) => 12 + bytes.readUInt32BE(8);

describe("round trip", () => {
  test.each([0, 1, megabyte - 1, megabyte, megabyte + 1, 3 * megabyte + 17])("%d bytes come back as they were", async (size) => {
    const plain = Buffer.alloc(size);
    for (let index = 0; index < size; index += 4093) plain[index] = index % 251;
    const path = await encryptedFile(plain);
    expect(await isEncryptedArchive(path)).toBe(true);
    const bytes = Bun.file(path);
    const decrypted = await decryptFile(path, Buffer.from(await bytes.arrayBuffer()));
    expect(decrypted.equals(plain)).toBe(true);
  });

  test("the same archive twice gives two different files (a fresh salt and nonce each time)", async () => {
    const plain = Buffer.from("isi arsip");
    const [first, second] = await Promise.all([encryptedFile(plain), encryptedFile(plain)]);
    expect(Buffer.from(await Bun.file(first).arrayBuffer()).equals(Buffer.from(await Bun.file(second).arrayBuffer()))).toBe(false);
  });
});

describe("refusals", () => {
  const plain = Buffer.alloc(2 * megabyte + 1000, 7);
  let path: string;
  let bytes: Buffer;
  // One archive for every refusal (each changes a copy of its bytes, never the file): its
  // key is derived once, instead of once more for each test.
  beforeAll(async () => {
    path = await encryptedFile(plain);
    bytes = Buffer.from(await Bun.file(path).arrayBuffer());
  });

  test("a wrong passphrase is said as such, before anything is decrypted", async () => {
    await expect(unlockArchive(path, "bukan passphrase-nya")).rejects.toThrow(`Passphrase salah untuk ${path}; tidak ada yang dipulihkan.`);
  });

  const damaged = () => `${path} terenkripsi tetapi tidak utuh: ada byte yang diubah, ditukar atau terpotong. Tidak ada yang dipulihkan.`;

  test.each([
    ["a byte of the first chunk", (b: Buffer) => (b[headerEnd(b) + 10]! ^= 1)],
    ["a byte of the last chunk", (b: Buffer) => (b[b.length - 40]! ^= 1)],
    ["a byte of a tag", (b: Buffer) => (b[headerEnd(b) + megabyte + 3]! ^= 1)],
  ])("%s changed: refused, and no byte of a damaged chunk is given out", async (_, change) => {
    const changed = Buffer.from(bytes);
    change(changed);
    const unlocked = await unlockArchive(path, passphrase);
    const given: Buffer[] = [];
    let failure: unknown;
    try {
      for await (const part of decrypt(chunks(changed), unlocked, path)) given.push(part);
    } catch (error) {
      failure = error;
    }
    expect((failure as Error).message).toBe(damaged());
    // Only whole chunks that passed their tags came out before the damage.
    expect(given.every((part) => part.length === megabyte)).toBe(true);
  });

  test.each([
    ["cut after the first chunk", (b: Buffer) => b.subarray(0, headerEnd(b) + megabyte + 16)],
    ["cut inside a chunk", (b: Buffer) => b.subarray(0, b.length - 100)],
    ["the last chunk dropped", (b: Buffer) => b.subarray(0, headerEnd(b) + 2 * (megabyte + 16))],
    ["two chunks swapped", (b: Buffer) => {
      const start = headerEnd(b);
      const first = b.subarray(start, start + megabyte + 16);
      const second = b.subarray(start + megabyte + 16, start + 2 * (megabyte + 16));
      return Buffer.concat([b.subarray(0, start), second, first, b.subarray(start + 2 * (megabyte + 16))]);
    }],
    ["bytes appended", (b: Buffer) => Buffer.concat([b, Buffer.from("x")])],
  ])("%s: refused", async (_, change) => {
    await expect(decryptFile(path, change(bytes))).rejects.toThrow(damaged());
  });

  test("another archive's header in front of these chunks: refused", async () => {
    const other = Buffer.from(await Bun.file(await encryptedFile(plain)).arrayBuffer());
    const spliced = Buffer.concat([bytes.subarray(0, headerEnd(bytes)), other.subarray(headerEnd(other))]);
    await expect(decryptFile(path, spliced)).rejects.toThrow(damaged());
  });

  test("a plain archive is not taken for an encrypted one", async () => {
    const plainPath = join(temporaryDir("skrining-enc-"), "biasa.tar.gz");
    writeFileSync(plainPath, Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0]));
    expect(await isEncryptedArchive(plainPath)).toBe(false);
  });
});

test.each(["", "pendek", "            "])("a passphrase %p breaks the rule", (value) => {
  expect(() => checkNewPassphrase(value)).toThrow("Passphrase cadangan minimal 12 karakter.");
});
