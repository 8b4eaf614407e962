import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { TestService, signedInService } from "../helpers";

// `nama_dosen` on every note record (an addition to the interface's keys): the pages sign a
// note with its lecturer's name. Every route that answers notes carries it, and a lecturer
// without a name gives null, never an empty string, so that a client can fall back to the NIP.

let service: TestService;
const tokens: Record<string, string> = {};
const ids: { named: number; unnamed: number } = { named: 0, unnamed: 0 };

beforeAll(async () => {
  const signedIn = await signedInService(["admin", "dosen1", "mhs1"]);
  service = signedIn.service;
  Object.assign(tokens, signedIn.tokens);
  ids.named = (await service.request("POST", "/api/dosen/catatan", { token: tokens.dosen1, body: { NIM: "N001", isi_catatan: "Dari Dosen Satu" } })).body.id;
  // dosen2 writes for N001 through an admin; then loses the name (a lecturer imported without one).
  ids.unnamed = (await service.request("POST", "/api/dosen/catatan", { token: tokens.admin, body: { NIM: "N001", NIP: "D002", isi_catatan: "Tanpa nama" } })).body.id;
  service.context.db.$client.run("UPDATE dosen SET nama_dosen = '' WHERE NIP = 'D002'");
});
afterAll(() => service.close());

/** The notes of N001 each route answers, by id. */
const routes: [string, () => Promise<{ Id_catatan: number; NIP: string; nama_dosen: string | null }[]>][] = [
  ["GET /api/mahasiswa/catatan", async () => (await service.request("GET", "/api/mahasiswa/catatan", { token: tokens.mhs1 })).body],
  ["GET /api/dosen/catatan/<nim>", async () => (await service.request("GET", "/api/dosen/catatan/N001", { token: tokens.admin })).body],
  ["GET /api/dosen/mahasiswa/<nim>", async () => (await service.request("GET", "/api/dosen/mahasiswa/N001", { token: tokens.admin })).body.catatan],
  ["GET /api/mahasiswa/data-saya", async () => (await service.request("GET", "/api/mahasiswa/data-saya", { token: tokens.mhs1 })).body.catatan],
  [
    "GET /api/mahasiswa/catatan/detail/<id>",
    async () => Promise.all([ids.named, ids.unnamed].map(async (id) => (await service.request("GET", `/api/mahasiswa/catatan/detail/${id}`, { token: tokens.mhs1 })).body)),
  ],
];

describe("nama_dosen", () => {
  test.each(routes)("%s: the lecturer's name, null for a lecturer without one", async (_route, read) => {
    const notes = await read();
    const byId = new Map(notes.map((note) => [note.Id_catatan, note]));
    expect(byId.get(ids.named)).toMatchObject({ NIP: "D001", nama_dosen: "Dosen Satu" });
    expect(byId.get(ids.unnamed)).toMatchObject({ NIP: "D002", nama_dosen: null });
  });

  test("a reply's answer carries it too (POST and PUT)", async () => {
    const first = await service.request("POST", `/api/mahasiswa/catatan/${ids.named}/reply`, { token: tokens.mhs1, body: { reply: "Baik." } });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ Id_catatan: ids.named, reply: "Baik.", nama_dosen: "Dosen Satu" });
    const edit = await service.request("PUT", `/api/mahasiswa/catatan/${ids.unnamed}/reply`, { token: tokens.mhs1, body: { reply: "Belum ada." } });
    expect(edit.status).toBe(400);
    const reply = await service.request("POST", `/api/mahasiswa/catatan/${ids.unnamed}/reply`, { token: tokens.mhs1, body: { reply: "Terima kasih." } });
    expect(reply.body.data).toMatchObject({ NIP: "D002", nama_dosen: null });
  });
});
