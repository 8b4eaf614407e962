// The interface's tables the OpenAPI document is held to (openapi-document.test.ts) and what
// the service's answers are checked with (openapi-answers.test.ts).
import { TestService } from "../helpers";

/** A service and the OpenAPI document it serves. */
export async function documentedService(): Promise<{ service: TestService; document: any }> {
  const service = new TestService();
  return { service, document: (await service.request("GET", "/openapi/json")).body };
}

export const methods = ["get", "put", "post", "delete", "patch"];

/** Every operation of the document as "METHOD /path", with the operation. */
export function operationsOf(document: any): [string, any][] {
  return Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    methods.filter((method) => item[method]).map((method) => [`${method.toUpperCase()} ${path}`, item[method]] as [string, any]),
  );
}
export const apiOperationsOf = (document: any) => operationsOf(document).filter(([name]) => name.split(" ")[1]!.startsWith("/api/"));
export const operationOf = (document: any, name: string) => {
  const [method, path] = name.split(" ");
  const found = document.paths[path!]?.[method!.toLowerCase()];
  if (!found) throw new Error(`${name} is not in the document`);
  return found;
};

export type JsonType = "string" | "integer" | "number" | "object" | "boolean";

/** The interface's Request column: each body's fields, their JSON type, and whether they are required. */
export const bodies: Record<string, { media: string; fields: Record<string, [JsonType, boolean]> }> = {
  "POST /api/auth/login": { media: "application/json", fields: { username: ["string", true], password: ["string", true] } },
  "POST /api/auth/activation": { media: "application/json", fields: { username: ["string", true], password: ["string", true], password_baru: ["string", false] } },
  "POST /api/auth/password": { media: "application/json", fields: { old_password: ["string", true], new_password: ["string", true] } },
  // durasi_detik and jawaban_keselamatan: additions of decisions §20.
  "POST /api/mahasiswa/kuesioner": {
    media: "application/json",
    fields: { jawaban: ["object", true], NIM: ["string", false], durasi_detik: ["number", false], jawaban_keselamatan: ["integer", false] },
  },
  "PUT /api/mahasiswa/profil": {
    media: "application/json",
    fields: {
      angkatan: ["string", false],
      gender: ["string", false],
      usia: ["integer", false],
      freq_olahraga: ["string", false],
      durasi_tidur: ["string", false],
      IPK: ["number", false],
    },
  },
  "POST /api/mahasiswa/mood": { media: "application/json", fields: { date: ["string", true], mood_value: ["integer", true], nim: ["string", false] } },
  "PUT /api/mahasiswa/mood/{id}": { media: "application/json", fields: { date: ["string", false], mood_value: ["integer", false] } },
  "POST /api/mahasiswa/diary": {
    media: "application/json",
    fields: { date: ["string", true], content: ["string", true], title: ["string", false], nim: ["string", false], dibagikan: ["boolean", false] },
  },
  "PUT /api/mahasiswa/diary/{id}": {
    media: "application/json",
    fields: { date: ["string", false], content: ["string", false], title: ["string", false], dibagikan: ["boolean", false] },
  },
  "PUT /api/mahasiswa/profil/foto": { media: "multipart/form-data", fields: { foto: ["string", true] } },
  "POST /api/mahasiswa/catatan/{id_catatan}/reply": { media: "application/json", fields: { reply: ["string", true] } },
  "PUT /api/mahasiswa/catatan/{id_catatan}/reply": { media: "application/json", fields: { reply: ["string", true] } },
  "POST /api/dosen/catatan": { media: "application/json", fields: { NIM: ["string", true], isi_catatan: ["string", true], NIP: ["string", false] } },
  "POST /api/privasi/pemberitahuan/setuju": { media: "application/json", fields: { version: ["string", true] } },
  "POST /api/dosen/tindak-lanjut/{id}/status": {
    media: "application/json",
    fields: { status: ["string", true], catatan: ["string", true], hasil_kontak: ["string", false], alasan_selesai: ["string", false], perlu_dukungan: ["string", false] },
  },
  "PUT /api/dosen/tindak-lanjut/{id}/pemilik": { media: "application/json", fields: { NIP: ["string", true] } },
  // Decisions §19.
  "POST /api/mahasiswa/minta-kontak": { media: "application/json", fields: { pesan: ["string", false] } },
  "PUT /api/dosen/profil": { media: "application/json", fields: { telepon: ["string", true] } },
};

/** The keys of a follow-up case (the issue 18 contract, /work/notes shared with the web interface). */
export const followUpCaseKeys = ["id", "NIM", "nama_mahasiswa", "NIP", "nama_dosen", "alasan", "status", "dibuka_pada", "pertama_dihubungi_pada", "ditutup_pada", "diperbarui_pada", "hari_terbuka"];

/**
 * The interface's answers of each route: the statuses it names (success, and the errors of
 * its rules and of its Auth column) and the keys of the success body (of its items, for a list).
 */
export const answers: Record<string, { statuses: number[]; keys: string[] }> = {
  "POST /api/auth/login": { statuses: [200, 400, 401, 403], keys: ["access_token", "refresh_token", "user"] },
  "POST /api/auth/refresh": { statuses: [200, 401], keys: ["access_token"] },
  "POST /api/auth/logout": { statuses: [200, 401], keys: ["message"] },
  "GET /api/auth/me": { statuses: [200, 401], keys: ["Id_User", "username", "role", "is_activated"] },
  "POST /api/auth/activation": { statuses: [200, 400, 401, 404, 500], keys: ["message", "user"] },
  "POST /api/auth/password": { statuses: [200, 400, 401], keys: ["message"] },
  "GET /api/mahasiswa/can_submit/{nim}": { statuses: [200, 401, 403, 404], keys: ["can_submit", "message", "last_submission_date", "days_remaining"] },
  "POST /api/mahasiswa/kuesioner": {
    statuses: [201, 400, 401, 403, 404],
    keys: ["message", "Id_skrining", "tingkat_stres", "tingkat_motivasi", "score_stress", "score_sdi", "saran", "detailed_suggestions"],
  },
  "GET /api/mahasiswa/hasil/{nim}": {
    statuses: [200, 401, 403, 404],
    keys: ["Id_skrining", "NIM", "tanggal_skrining", "tingkat_stres", "tingkat_motivasi", "saran", "score_stress", "score_sdi"],
  },
  "GET /api/mahasiswa/history": { statuses: [200, 401, 403], keys: ["data", "total", "page", "total_pages"] },
  "GET /api/mahasiswa/catatan": { statuses: [200, 401, 403, 404], keys: ["Id_catatan", "NIM", "NIP", "isi_catatan", "reply", "tanggal_reply"] },
  "GET /api/mahasiswa/suggestions/detail": { statuses: [200, 400, 401], keys: ["suggestions"] },
  "PUT /api/mahasiswa/profil": { statuses: [200, 400, 401, 403], keys: ["message", "data"] },
  "GET /api/mahasiswa/profil/status": { statuses: [200, 401, 403], keys: ["is_complete", "missing_fields"] },
  "GET /api/mahasiswa/profil/data/{nim}": {
    statuses: [200, 401, 403, 404],
    keys: ["nim", "nama", "program", "angkatan", "kelas", "ipk", "foto_profil", "gender", "usia", "freq_olahraga", "durasi_tidur", "nip_doswal", "nama_dosen_wali", "telepon_dosen_wali"],
  },
  "POST /api/mahasiswa/mood": { statuses: [200, 201, 400, 401, 403, 404], keys: ["id", "nim", "date", "mood_value", "created_at", "updated_at"] },
  "GET /api/mahasiswa/mood/{nim}": { statuses: [200, 401, 403], keys: ["id", "nim", "date", "mood_value", "created_at", "updated_at"] },
  "PUT /api/mahasiswa/mood/{id}": { statuses: [200, 400, 401, 403, 404], keys: ["id", "nim", "date", "mood_value", "created_at", "updated_at"] },
  "DELETE /api/mahasiswa/mood/{id}": { statuses: [200, 401, 403, 404], keys: ["message"] },
  "POST /api/mahasiswa/diary": { statuses: [201, 400, 401, 403, 404], keys: ["id", "nim", "date", "title", "content", "created_at"] },
  "GET /api/mahasiswa/diary/{nim}": { statuses: [200, 401, 403], keys: ["id", "nim", "date", "title", "content", "created_at"] },
  "PUT /api/mahasiswa/diary/{id}": { statuses: [200, 401, 403, 404], keys: ["id", "nim", "date", "title", "content", "created_at"] },
  "DELETE /api/mahasiswa/diary/{id}": { statuses: [200, 401, 403, 404], keys: ["message"] },
  "PUT /api/mahasiswa/profil/foto": { statuses: [200, 400, 401, 403, 500], keys: ["message", "foto_profil"] },
  "GET /api/mahasiswa/profil/foto/{nim}": { statuses: [200, 404], keys: [] },
  "DELETE /api/mahasiswa/profil/foto/{nim}": { statuses: [200, 401, 403, 404], keys: ["message", "foto_profil"] },
  "POST /api/mahasiswa/catatan/{id_catatan}/reply": { statuses: [200, 400, 401, 403, 404], keys: ["message", "data"] },
  "PUT /api/mahasiswa/catatan/{id_catatan}/reply": { statuses: [200, 400, 401, 403, 404], keys: ["message", "data"] },
  "GET /api/mahasiswa/catatan/detail/{id_catatan}": { statuses: [200, 401, 403, 404], keys: ["Id_catatan", "NIM", "NIP", "isi_catatan", "reply", "tanggal_reply"] },
  "GET /api/dosen/mahasiswa": { statuses: [200, 401, 403], keys: ["data", "total", "page", "total_pages"] },
  "GET /api/dosen/mahasiswa/{nim}": { statuses: [200, 401, 403, 404], keys: ["mahasiswa", "riwayat", "catatan"] },
  "GET /api/dosen/statistik": { statuses: [200, 401, 403], keys: ["total_mahasiswa", "sudah_skrining", "stress_dist", "motivasi_dist"] },
  "POST /api/dosen/catatan": { statuses: [201, 400, 401, 403, 404], keys: ["message", "id"] },
  "GET /api/dosen/catatan/{nim}": { statuses: [200, 401, 403, 404], keys: ["Id_catatan", "NIM", "NIP", "isi_catatan", "reply", "tanggal_reply"] },
  "GET /api/dosen/daftar": { statuses: [200, 401, 403], keys: ["NIP", "nama_dosen", "total_mahasiswa"] },
  "GET /api/konten/bantuan": { statuses: [200], keys: ["title", "text"] },
  "GET /api/kuesioner/questions": { statuses: [200, 401], keys: ["key", "text", "scale", "group"] },
  "GET /api/kuesioner/keselamatan": { statuses: [200, 401], keys: ["aktif", "pertanyaan", "skala", "pilihan", "kontak"] },
  "GET /api/privasi/pemberitahuan": { statuses: [200, 401], keys: ["version", "title", "text", "acknowledged"] },
  "POST /api/privasi/pemberitahuan/setuju": { statuses: [200, 201, 400, 401, 403, 409, 429], keys: ["message", "version", "acknowledged_at"] },
  "GET /api/mahasiswa/data-saya": {
    statuses: [200, 401, 403, 404],
    keys: ["dibuat_pada", "profil", "foto_url", "skrining", "mood", "jurnal", "catatan", "pemberitahuan_privasi", "dibatasi_sejak", "dilihat_oleh"],
  },
  // Issue 18: follow-up cases (docs/decisions.md, Follow-up cases).
  "GET /api/dosen/tindak-lanjut": { statuses: [200, 400, 401, 403], keys: ["data", "pagination"] },
  "GET /api/dosen/tindak-lanjut/ringkasan": { statuses: [200, 401, 403], keys: ["per_dosen", "fakultas"] },
  "GET /api/dosen/tindak-lanjut/{id}": { statuses: [200, 401, 403, 404], keys: [...followUpCaseKeys, "riwayat", "tingkat_terakhir"] },
  "POST /api/dosen/tindak-lanjut/{id}/status": { statuses: [200, 400, 401, 403, 404, 409], keys: [...followUpCaseKeys, "riwayat", "tingkat_terakhir"] },
  "PUT /api/dosen/tindak-lanjut/{id}/pemilik": { statuses: [200, 400, 401, 403, 404], keys: [...followUpCaseKeys, "riwayat", "tingkat_terakhir"] },
  // Decisions §19.
  "GET /api/mahasiswa/minta-kontak": { statuses: [200, 401, 403, 404], keys: ["dosen_wali", "permintaan_terakhir", "boleh_minta_lagi_pada"] },
  "POST /api/mahasiswa/minta-kontak": { statuses: [201, 400, 401, 403, 404, 429], keys: ["message", "dosen_wali", "permintaan_terakhir", "boleh_minta_lagi_pada"] },
  "GET /api/dosen/hari-ini": { statuses: [200, 401, 403], keys: ["kasus", "baru_ditutup", "balasan", "berisiko", "jumlah"] },
  "GET /api/dosen/profil": { statuses: [200, 401, 403, 404], keys: ["NIP", "nama_dosen", "telepon"] },
  "PUT /api/dosen/profil": { statuses: [200, 400, 401, 403, 404], keys: ["message", "data"] },
};

/** The query parameters each route reads, and whether the interface requires them. */
export const queries: Record<string, Record<string, boolean>> = {
  "GET /api/mahasiswa/history": { nim: false, page: false, per_page: false },
  "GET /api/mahasiswa/catatan": { nim: false },
  "GET /api/mahasiswa/suggestions/detail": { stress: true, motivation: true },
  "GET /api/dosen/mahasiswa": { q: false, page: false, per_page: false, sort: false, balasan: false, NIP: false },
  "GET /api/dosen/statistik": { NIP: false },
  "GET /api/dosen/tindak-lanjut": { status: false, min_hari: false, nip: false, page: false, per_page: false },
};

/** The routes that need no token (the interface's Auth `none`, and the faculty's help text). */
export const open = ["POST /api/auth/login", "POST /api/auth/activation", "GET /api/mahasiswa/profil/foto/{nim}", "GET /api/konten/bantuan"];
/** The routes that need no token but read one when it is given (the privacy notice: whether a student acknowledged it). */
export const optionalToken = ["GET /api/privasi/pemberitahuan"];

/** Writes answer 413 for a body over the limit, 503 and 507 for a storage that cannot store. */
export const writes = (name: string) => !name.startsWith("GET ");

/** An object schema's properties, looking through a union (every member) or a list (its items). */
export function objectsOf(schema: any): any[] {
  if (Array.isArray(schema?.anyOf)) return schema.anyOf.flatMap(objectsOf);
  if (schema?.type === "array") return objectsOf(schema.items);
  return [schema];
}

/** Every schema node of the document, each with where it is. */
export function* schemaNodes(node: unknown, at: string): Generator<[string, any]> {
  if (Array.isArray(node)) for (const [index, child] of node.entries()) yield* schemaNodes(child, `${at}/${index}`);
  else if (node && typeof node === "object") {
    yield [at, node];
    for (const [key, child] of Object.entries(node)) yield* schemaNodes(child, `${at}/${key}`);
  }
}
