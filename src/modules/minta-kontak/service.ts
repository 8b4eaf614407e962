import type { Database } from "bun:sqlite";
import type { DatabaseClient } from "../../db";
import { permintaanKontak, tindakLanjut, tindakLanjutRiwayat } from "../../db/schema";
import type { WriteQueue } from "../../db/write-queue";
import { ServiceError, forbidden, invalid, notFound } from "../../errors";
import type { Principal } from "../../requests/principal";
import { exceedsCharacters, type JsonObject } from "../../requests/values";
import { requestMessageMaxLength } from "../tindak-lanjut/moves";

/** A student asks at most once in this many milliseconds (decisions §19: once per 24 hours). */
const requestInterval = 24 * 3600 * 1000;

/** "5 jam 3 menit", "40 menit": the time left, whole minutes rounded up. */
function timeLeft(milliseconds: number): string {
  const minutes = Math.max(1, Math.ceil(milliseconds / 60_000));
  const hours = Math.floor(minutes / 60);
  return [hours > 0 ? `${hours} jam` : "", minutes % 60 > 0 ? `${minutes % 60} menit` : ""].filter(Boolean).join(" ");
}

export const mintaKontakMessages = {
  studentUnknown: "Mahasiswa tidak ditemukan.",
  restricted:
    "Pemrosesan data Anda sedang dibatasi atas permintaan Anda, jadi dosen tidak dapat menerima permintaan ini lewat skrining. Hubungi dosen wali Anda langsung, atau nomor bantuan di halaman Hasil.",
  messageNotText: "pesan harus berupa teks.",
  messageTooLong: `pesan paling banyak ${requestMessageMaxLength} karakter.`,
  tooSoon: (left: number) => `Anda sudah meminta dihubungi dalam 24 jam terakhir. Coba lagi dalam ${timeLeft(left)}.`,
  sent: "Permintaan Anda sudah diteruskan. Anda akan dihubungi secepatnya.",
} as const;

type Recipient = "dosen_wali" | "dosen_lain" | "admin";

interface StudentRow {
  nim: string;
  advisor: string | null;
  advisorName: string | null;
  advisorPhone: string | null;
  restrictedAt: string | null;
}

interface RequestRow {
  id: number;
  caseId: number | null;
  pesan: string;
  waktu: string;
  /** The request's case now: its status and handler; null once the case is gone. */
  status: string | null;
  handler: string | null;
  /** Someone on the staff wrote on the case since the request. */
  answered: number;
}

/**
 * A student's own request to be contacted (decisions §19, `POST /api/mahasiswa/minta-kontak`):
 * it opens a follow-up case with the reason `permintaan_mahasiswa` for the student's advisor
 * (the admins when there is none), or adds a timeline entry to the open case, whoever handles
 * it. Once per 24 hours. The student is told where the request stands: waiting, answered
 * (someone on the staff has written on the case since), or closed; nothing else of the case.
 */
export class MintaKontakService {
  private readonly sqlite: Database;
  private readonly studentOf;
  private readonly latestOf;
  private readonly openCaseOf;

  constructor(
    private readonly db: DatabaseClient,
    private readonly writes: WriteQueue,
  ) {
    this.sqlite = db.$client;
    this.studentOf = this.sqlite.prepare<StudentRow, [string]>(
      `SELECT student.NIM AS nim, student.NIP_doswal AS advisor, nullif(advisor.nama_dosen, '') AS advisorName, advisor.telepon AS advisorPhone, student.dibatasi_sejak AS restrictedAt
       FROM mahasiswa AS student LEFT JOIN dosen AS advisor ON advisor.NIP = student.NIP_doswal WHERE student.NIM = ?`,
    );
    this.latestOf = this.sqlite.prepare<RequestRow, [string]>(
      `SELECT request.id, request.Id_tindak_lanjut AS caseId, request.pesan, request.waktu, follow_up.status, follow_up.NIP AS handler,
         EXISTS (SELECT 1 FROM tindak_lanjut_riwayat AS entry JOIN users AS staff ON staff.Id_User = entry.Id_User AND staff.role <> 'mahasiswa'
                 WHERE entry.Id_tindak_lanjut = request.Id_tindak_lanjut AND entry.waktu >= request.waktu) AS answered
       FROM permintaan_kontak AS request LEFT JOIN tindak_lanjut AS follow_up ON follow_up.Id_tindak_lanjut = request.Id_tindak_lanjut
       WHERE request.NIM = ? ORDER BY request.waktu DESC, request.id DESC LIMIT 1`,
    );
    this.openCaseOf = this.sqlite.prepare<{ id: number; status: string }, [string]>("SELECT Id_tindak_lanjut AS id, status FROM tindak_lanjut WHERE NIM = ? AND status <> 'selesai'");
  }

  private student(principal: Principal): StudentRow {
    const student = principal.nim === null ? null : this.studentOf.get(principal.nim);
    if (!student) throw notFound(mintaKontakMessages.studentUnknown);
    return student;
  }

  /** The student's advisor, their latest request and where it stands, and when they may ask again. */
  state(principal: Principal, now = Date.now()) {
    const student = this.student(principal);
    const latest = this.latestOf.get(student.nim);
    const again = latest ? Date.parse(latest.waktu) + requestInterval : 0;
    return {
      dosen_wali: student.advisor === null ? null : { nama: student.advisorName ?? student.advisor, telepon: student.advisorPhone },
      permintaan_terakhir: latest
        ? {
            waktu: latest.waktu,
            pesan: latest.pesan,
            status: latest.status === null || latest.status === "selesai" ? ("selesai" as const) : latest.answered === 1 ? ("ditanggapi" as const) : ("menunggu" as const),
            penerima: recipient(latest.handler, student.advisor),
          }
        : null,
      boleh_minta_lagi_pada: again > now ? new Date(again).toISOString() : null,
    };
  }

  /**
   * Checks in order: the student (404), the restriction (403: staff may not process the
   * student's data), the 24 hours since the last request (429 with the time left), the
   * message (400). The checks and the writes share one job of the write queue, so two
   * requests sent at once make one.
   */
  async request(principal: Principal, body: JsonObject) {
    await this.writes.run(
      () => {
        const now = Date.now();
        const student = this.student(principal);
        if (student.restrictedAt !== null) throw forbidden(mintaKontakMessages.restricted);
        const latest = this.latestOf.get(student.nim);
        const left = latest ? Date.parse(latest.waktu) + requestInterval - now : 0;
        if (left > 0) {
          throw new ServiceError("too_many", mintaKontakMessages.tooSoon(left), {
            retryAfterSeconds: Math.ceil(left / 1000),
            body: { boleh_minta_lagi_pada: new Date(now + left).toISOString() },
          });
        }
        const pesan = readMessage(body.pesan);
        this.record(principal, student, pesan, new Date(now).toISOString());
      },
      { touches: [tindakLanjut, tindakLanjutRiwayat, permintaanKontak] },
    );
    return { message: mintaKontakMessages.sent, ...this.state(principal) };
  }

  /** Opens a case for the advisor, or adds the request to the open one; then the request itself. */
  private record(principal: Principal, student: StudentRow, pesan: string, now: string): void {
    const words = pesan === "" ? "" : ` Pesan mahasiswa: “${pesan}”`;
    const author = principal.nama || principal.username;
    const open = this.openCaseOf.get(student.nim);
    let caseId: number;
    if (open) {
      caseId = open.id;
      this.sqlite.run("UPDATE tindak_lanjut SET alasan_permintaan_mahasiswa = 1, diperbarui_pada = ? WHERE Id_tindak_lanjut = ?", [now, caseId]);
      this.sqlite.run(
        "INSERT INTO tindak_lanjut_riwayat (Id_tindak_lanjut, status_dari, status_ke, catatan, Id_User, nama, waktu) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [caseId, open.status, open.status, `Mahasiswa meminta dihubungi.${words}`, principal.id, author, now],
      );
    } else {
      caseId = this.sqlite
        .query<{ id: number }, [string, string | null, string]>(
          `INSERT INTO tindak_lanjut (NIM, NIP, alasan_early_warning, alasan_perubahan_mendadak, alasan_stres_sangat_tinggi, alasan_permintaan_mahasiswa, status, dibuka_pada, diperbarui_pada)
           VALUES (?1, ?2, 0, 0, 0, 1, 'baru', ?3, ?3) RETURNING Id_tindak_lanjut AS id`,
        )
        .get(student.nim, student.advisor, now)!.id;
      this.sqlite.run(
        "INSERT INTO tindak_lanjut_riwayat (Id_tindak_lanjut, status_dari, status_ke, catatan, Id_User, nama, waktu) VALUES (?, NULL, 'baru', ?, ?, ?, ?)",
        [caseId, `Dibuka atas permintaan mahasiswa.${words}`, principal.id, author, now],
      );
    }
    this.db.insert(permintaanKontak).values({ nim: student.nim, caseId, pesan, waktu: now }).run();
  }
}

/** Who handles a case, as the student is told (decisions §13): their advisor, another lecturer, or the admins. */
function recipient(handler: string | null, advisor: string | null): Recipient {
  if (handler === null) return "admin";
  return handler === advisor ? "dosen_wali" : "dosen_lain";
}

/** `pesan`: optional; trimmed; at most 1,000 characters. */
function readMessage(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value !== "string") throw invalid(mintaKontakMessages.messageNotText);
  const pesan = value.trim();
  if (exceedsCharacters(pesan, requestMessageMaxLength)) throw invalid(mintaKontakMessages.messageTooLong);
  return pesan;
}
