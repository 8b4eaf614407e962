import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TestService, standardAccounts } from "../helpers";
import { gifWithComment, jpegWithExif, metadataTexts, pngSized, pngWithText, progressiveJpeg, progressiveMetadataTexts, webpWithExif } from "../photos/fixtures";

let service: TestService;
const tokens: Record<string, string> = {};

const photosDir = () => join(service.dataDir, "photos");
const photoFiles = () => readdirSync(photosDir()).sort();
const storedPath = (nim: string) =>
  (service.context.db.$client.query("SELECT foto_profil FROM mahasiswa WHERE NIM = ?").get(nim) as { foto_profil: string | null }).foto_profil;
const latin1 = (bytes: Uint8Array) => new TextDecoder("latin1").decode(bytes);

function form(parts: Record<string, Blob | string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(parts)) data.append(name, value);
  return data;
}

const upload = (body: RequestInit["body"], token = tokens.mhs1) => service.request("PUT", "/api/mahasiswa/profil/foto", { token, rawBody: body });
const uploadFile = (bytes: Uint8Array, name = "foto.jpg", token = tokens.mhs1) => upload(form({ foto: new File([bytes], name) }), token);
const download = (nim: string, headers: Record<string, string> = {}) => service.app.handle(new Request(`http://localhost/api/mahasiswa/profil/foto/${nim}`, { headers }));

beforeAll(async () => {
  service = new TestService({ SKRINING_PHOTO_LIMIT: String(64 * 1024) });
  await service.importAccounts(standardAccounts);
  await service.addStudentWithoutProfile();
  Object.assign(tokens, await service.accessTokens(["admin", "dosen1", "mhs1", "mhs2", "tanpaprofil"]));
});
afterAll(() => service.close());

describe("PUT /api/mahasiswa/profil/foto", () => {
  test.each([
    ["a JPEG with an Exif block", jpegWithExif, "image/jpeg", /\.jpg$/],
    ["a PNG with a tEXt chunk", pngWithText, "image/png", /\.png$/],
    ["a WebP with Exif", webpWithExif, "image/webp", /\.webp$/],
    ["a GIF with a comment", gifWithComment, "image/gif", /\.gif$/],
  ])("%s is stored without its metadata and served with its own type", async (_name, make, mediaType, extension) => {
    const original = make();
    const previous = storedPath("N001");
    // The client's name says nothing about the type and is never used as a path.
    const response = await uploadFile(original, "../../evil.txt");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: expect.any(String), foto_profil: expect.stringMatching(/^photos\/N001_\d+_[0-9a-f]{8}\.\w+$/) });
    expect(response.body.foto_profil).toMatch(extension);
    expect(storedPath("N001")).toBe(response.body.foto_profil);

    const stored = new Uint8Array(readFileSync(join(service.dataDir, response.body.foto_profil)));
    expect(metadataTexts.filter((text) => latin1(stored).includes(text))).toEqual([]);
    expect(stored.length).toBeLessThan(original.length);

    const served = await download("N001");
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe(mediaType);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(stored);

    // The replaced file is gone: exactly one photo file remains.
    expect(photoFiles()).toEqual([response.body.foto_profil.slice("photos/".length)]);
    if (previous) expect(existsSync(join(service.dataDir, previous))).toBe(false);
  });

  test("a progressive JPEG is stored without the metadata between and after its scans", async () => {
    const response = await uploadFile(progressiveJpeg(), "foto.jpg");
    expect(response.status).toBe(200);
    const served = await download("N001");
    expect(served.status).toBe(200);
    const bytes: Uint8Array = new Uint8Array(await served.arrayBuffer());
    expect(progressiveMetadataTexts.filter((text) => latin1(bytes).includes(text))).toEqual([]);
    expect(bytes).toEqual(progressiveJpeg(false));
  });

  test("a PNG declaring 100000 × 100000 pixels → 400, nothing written", async () => {
    const profile = async () => (await service.request("GET", "/api/mahasiswa/profil/data/N002", { token: tokens.mhs2 })).body.foto_profil;
    const files = photoFiles();
    expect(await profile()).toBeNull();
    const response = await uploadFile(pngSized(100_000, 100_000), "foto.png", tokens.mhs2);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: "Ukuran gambar terlalu besar." });
    expect(photoFiles()).toEqual(files);
    expect(await profile()).toBeNull();
    expect(storedPath("N002")).toBeNull();
  });

  test.each([
    ["no body", undefined, "Tidak ada file foto yang dikirim."],
    ["a JSON body", JSON.stringify({ foto: "x" }), "Tidak ada file foto yang dikirim."],
    ["a form without foto", () => form({ gambar: new File([jpegWithExif()], "a.jpg") }), "Tidak ada file foto yang dikirim."],
    ["foto as a text field", () => form({ foto: "bukan file" }), "Tidak ada file foto yang dikirim."],
    ["an empty file name", () => form({ foto: new File([jpegWithExif()], "") }), "Nama file kosong."],
    ["a text file named .jpg", () => form({ foto: new File(["hello, this is text"], "foto.jpg") }), "Tipe file tidak diizinkan. Gunakan JPG, PNG, GIF, atau WebP."],
    ["an empty file", () => form({ foto: new File([], "foto.png") }), "Tipe file tidak diizinkan. Gunakan JPG, PNG, GIF, atau WebP."],
    ["a truncated JPEG", () => form({ foto: new File([jpegWithExif().slice(0, 20)], "foto.jpg") }), "File gambar rusak atau tidak lengkap."],
    ["a file over the limit", () => form({ foto: new File([jpegWithExif(), new Uint8Array(64 * 1024)], "foto.jpg") }), "Ukuran foto melebihi batas 64 KB."],
  ])("%s → 400, nothing written", async (_name, body, error) => {
    const before = { path: storedPath("N001"), files: photoFiles() };
    const response = await upload(typeof body === "function" ? body() : body);
    expect(response).toMatchObject({ status: 400, body: { error } });
    expect({ path: storedPath("N001"), files: photoFiles() }).toEqual(before);
  });

  test("a body far over the limit answers 413", async () => {
    const response = await upload(form({ foto: new File([new Uint8Array(256 * 1024)], "foto.jpg") }));
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ error: expect.any(String) });
  });

  test.each([
    ["an admin", "admin", 403, "Hanya mahasiswa yang dapat mengakses."],
    ["a lecturer", "dosen1", 403, "Hanya mahasiswa yang dapat mengakses."],
    ["a student without a profile", "tanpaprofil", 404, "Mahasiswa tidak ditemukan."],
  ])("%s is refused", async (_name, who, status, error) => {
    const files = photoFiles();
    expect(await uploadFile(jpegWithExif(), "a.jpg", tokens[who])).toMatchObject({ status, body: { error } });
    expect(photoFiles()).toEqual(files);
  });

  test("without a token: 401", async () => {
    expect((await service.request("PUT", "/api/mahasiswa/profil/foto", { rawBody: form({ foto: new File([jpegWithExif()], "a.jpg") }) })).status).toBe(401);
  });

  test("a failed save answers 500, leaves the old photo and no new file", async () => {
    const before = { path: storedPath("N001"), files: photoFiles() };
    // A database that refuses the write: the new file must be removed again.
    service.context.db.$client.run("CREATE TRIGGER refuse_photo BEFORE UPDATE OF foto_profil ON mahasiswa BEGIN SELECT RAISE(ABORT, 'disk full'); END");
    try {
      expect(await uploadFile(pngWithText(), "a.png")).toMatchObject({ status: 500, body: { error: "Terjadi kesalahan saat menyimpan foto." } });
    } finally {
      service.context.db.$client.run("DROP TRIGGER refuse_photo");
    }
    expect({ path: storedPath("N001"), files: photoFiles() }).toEqual(before);
  });

  test("parallel uploads by one student leave exactly one file, the one committed last", async () => {
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => uploadFile(i % 2 ? pngWithText() : jpegWithExif(), `f${i}.jpg`)));
    expect(results.every((result) => result.status === 200)).toBe(true);
    const path = storedPath("N001")!;
    expect(photoFiles()).toEqual([path.slice("photos/".length)]);
  });
});

describe("GET /api/mahasiswa/profil/foto/<nim>", () => {
  test("needs no token, and answers 304 to a matching If-None-Match", async () => {
    await uploadFile(jpegWithExif());
    const first = await download("N001");
    expect(first.status).toBe(200);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]+"$/);
    expect(first.headers.get("cache-control")).toBe("private, no-cache");
    expect(first.headers.get("x-content-type-options")).toBe("nosniff");

    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const again = await download("N001", { "if-none-match": header });
      expect(again.status).toBe(304);
      expect(again.headers.get("etag")).toBe(etag);
      expect(await again.text()).toBe("");
    }
    expect((await download("N001", { "if-none-match": '"stale"' })).status).toBe(200);

    // A new upload gets a new validator, so caches see the change.
    await uploadFile(pngWithText(), "b.png");
    const changed = await download("N001", { "if-none-match": etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
  });

  test.each([
    ["an unknown student", "X404", "Mahasiswa tidak ditemukan."],
    ["a student without a photo", "N002", "Foto profil tidak ditemukan."],
  ])("%s → 404", async (_name, nim, error) => {
    const response = await download(nim);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error });
  });

  test("a photo whose file is gone → 404", async () => {
    await uploadFile(jpegWithExif());
    rmSync(join(service.dataDir, storedPath("N001")!));
    const response = await download("N001");
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "File foto tidak ada di server." });
  });

  test("a stored path outside photos/ is never served", async () => {
    writeFileSync(join(service.dataDir, "secret-copy"), "not a photo");
    service.context.db.$client.run("UPDATE mahasiswa SET foto_profil = '../secret-copy' WHERE NIM = 'N002'");
    const response = await download("N002");
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "File foto tidak ada di server." });
    service.context.db.$client.run("UPDATE mahasiswa SET foto_profil = 'secret-copy' WHERE NIM = 'N002'");
    expect((await download("N002")).status).toBe(404);
    service.context.db.$client.run("UPDATE mahasiswa SET foto_profil = NULL WHERE NIM = 'N002'");
  });
});

describe("DELETE /api/mahasiswa/profil/foto/<nim>", () => {
  test("removes the path and the file", async () => {
    const path = (await uploadFile(jpegWithExif())).body.foto_profil;
    const response = await service.request("DELETE", "/api/mahasiswa/profil/foto/N001", { token: tokens.mhs1 });
    expect(response).toMatchObject({ status: 200, body: { message: expect.any(String), foto_profil: null } });
    expect(storedPath("N001")).toBeNull();
    expect(existsSync(join(service.dataDir, path))).toBe(false);
    expect((await download("N001")).status).toBe(404);
  });

  test("answers 200 when there is no photo", async () => {
    expect(await service.request("DELETE", "/api/mahasiswa/profil/foto/N002", { token: tokens.mhs2 })).toMatchObject({ status: 200, body: { foto_profil: null } });
  });

  test("a student deletes only their own photo: another NIM → 403, nothing deleted (decisions §9)", async () => {
    const path = (await uploadFile(jpegWithExif(), "a.jpg", tokens.mhs2)).body.foto_profil;
    expect(await service.request("DELETE", "/api/mahasiswa/profil/foto/N002", { token: tokens.mhs1 })).toMatchObject({ status: 403, body: { error: "Akses ditolak." } });
    expect(storedPath("N002")).toBe(path);
    expect(existsSync(join(service.dataDir, path))).toBe(true);
    expect((await download("N002")).status).toBe(200);
  });

  test.each([
    ["an admin", "admin", "N001", 403, "Hanya mahasiswa yang dapat mengakses."],
    ["a lecturer", "dosen1", "N001", 403, "Hanya mahasiswa yang dapat mengakses."],
    ["a student naming an unknown NIM", "mhs1", "X404", 403, "Akses ditolak."],
  ])("%s → %d", async (_name, who, nim, status, error) => {
    expect(await service.request("DELETE", `/api/mahasiswa/profil/foto/${nim}`, { token: tokens[who] })).toMatchObject({ status, body: { error } });
  });
});

test("an upload after the photos folder was removed recreates it", async () => {
  const own = new TestService();
  try {
    await own.importAccounts(standardAccounts);
    const token = (await own.login("mhs1", "mhs-pass-1")).access;
    rmSync(join(own.dataDir, "photos"), { recursive: true, force: true });
    const form = new FormData();
    form.append("foto", new File([jpegWithExif()], "a.jpg"));
    const response = await own.request("PUT", "/api/mahasiswa/profil/foto", { token, rawBody: form });
    expect(response.status).toBe(200);
    expect(existsSync(join(own.dataDir, response.body.foto_profil))).toBe(true);
  } finally {
    own.close();
  }
});

describe("tidying at start-up", () => {
  test("deletes half-written uploads, moves unreferenced photos aside and keeps the referenced ones", async () => {
    const kept = (await uploadFile(jpegWithExif())).body.foto_profil.slice("photos/".length);
    writeFileSync(join(photosDir(), ".upload-deadbeef"), "half");
    writeFileSync(join(photosDir(), "N001_1_abcd0000.jpg"), "orphan");
    const referenced = (service.context.db.$client.query("SELECT foto_profil FROM mahasiswa WHERE foto_profil IS NOT NULL").all() as { foto_profil: string }[])
      .map((row) => row.foto_profil.slice("photos/".length))
      .sort();
    expect(referenced).toContain(kept);
    expect(service.features.photos.sweepOrphans()).toEqual({ deleted: 1, movedAside: 1 });
    expect(photoFiles().filter((name) => name !== "unreferenced")).toEqual(referenced);
    // Nothing is deleted on a guess: the unreferenced photo is kept where an admin can look.
    expect(readdirSync(join(photosDir(), "unreferenced"))).toEqual(["N001_1_abcd0000.jpg"]);
  });

  test("looks only at the files listed before the port opened: an upload of this run (finished or under way) is left alone", async () => {
    writeFileSync(join(photosDir(), ".upload-00000001"), "half, from a crash");
    writeFileSync(join(photosDir(), "N001_1_abcd0000.jpg"), "orphan from before");
    const before = service.features.photos.photoFiles();
    expect([...before]).toEqual(expect.arrayContaining([".upload-00000001", "N001_1_abcd0000.jpg"]));
    // Written after the list was taken, its path not committed yet.
    writeFileSync(join(photosDir(), ".upload-00000002"), "being written");
    writeFileSync(join(photosDir(), "N002_2_abcd0001.jpg"), "renamed into place, commit still to come");
    expect(service.features.photos.sweepOrphans(before)).toEqual({ deleted: 1, movedAside: 1 });
    expect(photoFiles()).toEqual(expect.arrayContaining([".upload-00000002", "N002_2_abcd0001.jpg"]));
    expect(photoFiles()).not.toContain(".upload-00000001");
    expect(readdirSync(join(photosDir(), "unreferenced"))).toContain("N001_1_abcd0000.jpg");
  });

  test("never runs against a database without students (a new or emptied one)", async () => {
    const empty = new TestService();
    try {
      writeFileSync(join(empty.dataDir, "photos", "N001_1_abcd0000.jpg"), "a photo of a database that was replaced");
      expect(empty.features.photos.sweepOrphans()).toBeNull();
      expect(readdirSync(join(empty.dataDir, "photos"))).toEqual(["N001_1_abcd0000.jpg"]);
    } finally {
      empty.close();
    }
  });
});
