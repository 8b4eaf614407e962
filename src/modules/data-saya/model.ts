import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { auditActions } from "../../db/schema";
import { CatatanRecord, DiaryEntry, MoodEntry, SkriningRecord } from "../../records";
import { ProfilDataResponse } from "../profil/model";

const isoTime = (description: string) => t.String({ format: "date-time", description });

/** A screening with its answers, as the detail views give it. */
const ScreeningWithAnswers = t.Object(
  { ...SkriningRecord.properties, input_jawaban: t.Record(t.String(), t.Any(), { description: "the answers as submitted" }) },
  { additionalProperties: false },
);

const Acknowledgement = t.Object(
  { versi: t.String({ description: "the version of the privacy notice" }), disetujui_pada: isoTime("when the student acknowledged it (UTC)") },
  { additionalProperties: false },
);

/** One access by someone else, from the audit trail; never the address it came from. */
const Access = t.Object(
  {
    waktu: isoTime("when (UTC)"),
    peran: t.String({ description: "`dosen`, `admin` or `cli` (an administrator's command on the server)" }),
    nama: t.Nullable(t.String({ description: "the lecturer's or admin's name; null for a command" })),
    aksi: t.UnionEnum(auditActions, { description: "what was done: `view`, `export`, a write, `privacy`..." }),
    rute: t.String({ description: "the route pattern (`GET /api/dosen/mahasiswa/:nim`) or the command (`skrining privacy export`)" }),
    // TypeBox's Integer: Elysia's t.Integer would document a string of digits as well.
    kali: Type.Integer({ minimum: 1, description: "how many times: the same read repeated within a moment is one entry with its count" }),
  },
  { additionalProperties: false },
);

/**
 * Everything skrining holds about one student (UU PDP's right of access): what
 * `GET /api/mahasiswa/data-saya` answers and `skrining privacy export` writes.
 */
export const StudentData = t.Object(
  {
    dibuat_pada: isoTime("when this document was made (UTC)"),
    profil: ProfilDataResponse,
    foto_url: t.Nullable(t.String({ description: "the photo's route, `/api/mahasiswa/profil/foto/<nim>`; null without a photo" })),
    skrining: t.Array(ScreeningWithAnswers, { description: "every screening, newest first" }),
    mood: t.Array(MoodEntry, { description: "newest date first, as GET /api/mahasiswa/mood/<nim>" }),
    jurnal: t.Array(DiaryEntry, { description: "newest date first, as GET /api/mahasiswa/diary/<nim>" }),
    catatan: t.Array(CatatanRecord, { description: "the counselling notes with the student's reply, newest first" }),
    permintaan_kontak: t.Array(
      t.Object({ waktu: isoTime("when the student asked to be contacted (UTC)"), pesan: t.String({ description: "what they wrote; empty when nothing" }) }, { additionalProperties: false }),
      { description: "decisions §19: the student's requests to be contacted (POST /api/mahasiswa/minta-kontak), newest first" },
    ),
    pemberitahuan_privasi: t.Array(Acknowledgement, { description: "the privacy notice versions the student acknowledged, oldest first" }),
    dibatasi_sejak: t.Nullable(isoTime("processing restricted since (`privacy restrict`); null when not restricted")),
    dilihat_oleh: t.Array(Access, { description: "who else read, exported or changed the student's data, newest first" }),
  },
  { additionalProperties: false },
);
