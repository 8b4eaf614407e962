import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { CatatanRecord, MahasiswaRecord, SkriningRecord, level } from "../../records";
import { TindakLanjutCase } from "../tindak-lanjut/model";

const text = (description: string) => t.Optional(t.String({ description }));

// Query strings are documentation only (src/http/documentation.ts `queryParameters`).

export const StudentsQuery = t.Object({
  q: text("text contained in the NIM or the name (literal, case-insensitive for ASCII)"),
  page: t.Optional(Type.Integer({ minimum: 1, default: 1, description: "another value means the default" })),
  per_page: t.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: "above 100 means 100; another value the default" })),
  sort: text("`risk`: early warnings and very high stress first, then the newest screenings; default by NIM"),
  balasan: text("`1`: only the advisees whose replies are new for the lecturer, the latest reply first (decisions §19; `sort` is then ignored)"),
  NIP: text("admin only: the lecturer whose advisees are listed"),
});

export const LecturerList = t.Array(
  t.Object({ NIP: t.String(), nama_dosen: t.String(), total_mahasiswa: Type.Integer({ description: "advisees" }) }, { additionalProperties: false }),
);

export const NipQuery = t.Object({ NIP: text("admin only: the lecturer whose advisees are counted") });

const LastSkrining = t.Object(
  { ...SkriningRecord.properties, is_spike: t.Boolean({ description: "score_stress at least 30 above the previous screening" }) },
  { additionalProperties: false },
);

const restrictedFlag = t.Boolean({
  description:
    "the student's processing is restricted (`privacy restrict`): only who they are is shown; IPK, foto_profil, gender, usia, freq_olahraga and durasi_tidur are null, screenings and notes empty",
});

const StudentItem = t.Object(
  {
    ...MahasiswaRecord.properties,
    last_skrining: t.Nullable(LastSkrining),
    early_warning: t.Boolean({ description: "is_spike, or latest stress Tinggi with motivation Rendah" }),
    stres_sangat_tinggi: t.Boolean({ description: "the latest score_stress is at or above the follow-up threshold (decisions §13; 160 by default)" }),
    balasan_baru: Type.Integer({
      description: "replies of this student the acting lecturer has not seen yet: to their own notes, and (decisions §19) as the advisor to other lecturers' notes",
    }),
    dibatasi: restrictedFlag,
  },
  { additionalProperties: false },
);

export const StudentList = t.Object(
  { data: t.Array(StudentItem), total: Type.Integer(), page: Type.Integer(), total_pages: Type.Integer() },
  { additionalProperties: false },
);

export const StudentDetail = t.Object(
  {
    mahasiswa: MahasiswaRecord,
    riwayat: t.Array(SkriningRecord),
    catatan: t.Array(CatatanRecord),
    tindak_lanjut: t.Nullable({ ...TindakLanjutCase, description: "the student's open follow-up case (GET /api/dosen/tindak-lanjut/:id); null when none, or while restricted" }),
    dibatasi: restrictedFlag,
  },
  { additionalProperties: false },
);

/** The 403 of a lecturer the student moved away from (decisions §19). */
export const MovedAwayResponse = t.Object(
  {
    error: t.String({ description: "`Mahasiswa bukan bimbingan Anda.`" }),
    pindah_dosen_wali: t.Optional(
      t.Object(
        {
          tanggal: t.String({ description: "UTC, ISO 8601: when the student last moved away from the caller" }),
          nama_dosen_wali_baru: t.Nullable(t.String({ description: "the advisor the student moved to then; null when none, or nameless" })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

const LevelCounts = t.Object({ Rendah: Type.Integer(), Sedang: Type.Integer(), Tinggi: Type.Integer() }, { additionalProperties: false });

export const TrendWeek = t.Object({
  week: t.String({ description: "ISO week, e.g. 2026-W47" }),
  start: t.String({ description: "its Monday (UTC), YYYY-MM-DD" }),
  stress: LevelCounts,
  motivasi: LevelCounts,
});

const emptyObject = t.Object({}, { additionalProperties: false });

export const StatistikResponse = t.Union([
  t.Object(
    {
      total_mahasiswa: Type.Integer(),
      sudah_skrining: Type.Integer(),
      belum_skrining: Type.Integer(),
      stress_dist: LevelCounts,
      motivasi_dist: LevelCounts,
      trend: t.Array(TrendWeek, { description: "the last 12 ISO weeks, oldest first" }),
    },
    { additionalProperties: false },
  ),
  t.Object(
    { total_mahasiswa: t.Literal(0), sudah_skrining: t.Literal(0), stress_dist: emptyObject, motivasi_dist: emptyObject },
    { additionalProperties: false, description: "no advisees" },
  ),
]);

export const DosenProfil = t.Object(
  {
    NIP: t.String(),
    nama_dosen: t.String(),
    telepon: t.Nullable(t.String({ description: "decisions §19: the telephone/WhatsApp number the lecturer's advisees see; null when none" })),
  },
  { additionalProperties: false },
);

export const DosenProfilBody = t.Object({
  telepon: t.String({ description: "digits, with a leading + and spaces, brackets or dashes, at most 24 characters; \"\" (or null) clears it" }),
});

export const DosenProfilSaved = t.Object({ message: t.String(), data: DosenProfil }, { additionalProperties: false });

const TodayReply = t.Object(
  {
    NIM: t.String(),
    nama_mahasiswa: t.Nullable(t.String()),
    balasan_baru: Type.Integer({ description: "the student's replies new for the lecturer" }),
    tanggal_balasan: t.String({ description: "UTC, ISO 8601: the latest of those replies" }),
    dapat_dibuka: t.Boolean({ description: "the lecturer may open the student's page (an advisee, or the student of an open case they handle)" }),
    id_tindak_lanjut: t.Nullable(Type.Integer({ description: "the latest case of the student the lecturer handled (where a former handler reads the conversation); null when none" })),
  },
  { additionalProperties: false },
);

const TodayAtRisk = t.Object(
  {
    NIM: t.String(),
    nama_mahasiswa: t.Nullable(t.String()),
    tanggal_skrining: t.String({ description: "the latest screening's time (UTC)" }),
    tingkat_stres: level,
    tingkat_motivasi: level,
    early_warning: t.Boolean(),
    stres_sangat_tinggi: t.Boolean({ description: "the latest score_stress is at or above the follow-up threshold" }),
    id_tindak_lanjut: t.Nullable(Type.Integer({ description: "the student's open case; null when none" })),
  },
  { additionalProperties: false },
);

const todayCount = (description: string) => Type.Integer({ description });

/** Decisions §19: a lecturer's first page, "who needs me today". */
export const TodayResponse = t.Object(
  {
    kasus: t.Array(TindakLanjutCase, { description: "the open cases the lecturer handles that wait for them: late ones first, then new ones and students' requests; at most 10" }),
    baru_ditutup: t.Array(TindakLanjutCase, { description: "closed cases of their advisees that another lecturer handled, not opened yet; at most 10" }),
    balasan: t.Array(TodayReply, { description: "students whose replies are new for the lecturer, the latest first; at most 10" }),
    berisiko: t.Array(TodayAtRisk, { description: "advisees whose latest screening raised an early warning or a very high stress score, the newest first; at most 10" }),
    jumlah: t.Object(
      {
        kasus: todayCount("open cases waiting for the lecturer"),
        baru_ditutup: todayCount("closings new for them"),
        balasan: todayCount("students with replies new for them"),
        berisiko: todayCount("advisees at risk"),
        bimbingan: todayCount("advisees"),
        ditangani: todayCount("cases they handle, open or closed"),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
