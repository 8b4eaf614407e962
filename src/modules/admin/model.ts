import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { HelpContactResponse } from "../konten/model";
import { SafetyState } from "../keselamatan/model";
import { level } from "../../records";

// The answers of the admin console's routes: the contract between a route and its page
// (src/web/pages/admin/ reads these types). Keys follow the services' own names.

const Integer = () => Type.Integer();
const Level = t.Object({ Rendah: Integer(), Sedang: Integer(), Tinggi: Integer() }, { additionalProperties: false });

export const MessageAnswer = t.Object({ message: t.String() }, { additionalProperties: false });

/** That the console answers this client (the web hides its link where it would not: issue 44, item 11), and its address on the PC. */
export const ConsoleReachAnswer = t.Object({ alamat: t.String() }, { additionalProperties: false });

export const UploadLimits = t.Object({ daftar: Integer(), model: Integer() }, { additionalProperties: false });

export const ConfirmationAnswer = t.Object({ konfirmasi: t.String(), berlaku_sampai: t.String() }, { additionalProperties: false });

export const AccountItem = t.Object(
  {
    id: Integer(),
    username: t.String(),
    role: t.Union([t.Literal("mahasiswa"), t.Literal("dosen"), t.Literal("admin")]),
    activated: t.Boolean(),
    disabled: t.Boolean(),
    nim: t.Nullable(t.String()),
    nip: t.Nullable(t.String()),
    nama: t.Nullable(t.String()),
    created_at: t.String(),
    under_18: t.Boolean(),
    password_sementara: t.Boolean(),
  },
  { additionalProperties: false },
);

export const AccountPage = t.Object({ data: t.Array(AccountItem), total: Integer(), page: Integer(), total_pages: Integer() }, { additionalProperties: false });

export const AccountAdded = t.Object({ message: t.String(), username: t.String() }, { additionalProperties: false });

export const PasswordReset = t.Object({ message: t.String(), password: t.String() }, { additionalProperties: false });

const RowProblem = t.Object({ line: Integer(), message: t.String() }, { additionalProperties: false });

const ImportCounts = t.Object(
  { created: Integer(), updated: Integer(), unchanged: Integer(), passwordsReset: Integer(), leftInactive: Integer() },
  { additionalProperties: false },
);

const NamedLecturer = t.Object({ NIP: t.Nullable(t.String()), nama_dosen: t.Nullable(t.String()) }, { additionalProperties: false });

export const ImportPreview = t.Object(
  {
    problems: t.Array(RowProblem),
    rows: t.Array(
      t.Object(
        {
          line: Integer(),
          username: t.String(),
          role: t.String(),
          outcome: t.Union([t.Literal("dibuat"), t.Literal("diperbarui"), t.Literal("tidak berubah")]),
          fields: t.Array(t.String()),
          passwordReset: t.Boolean(),
          advisor: t.Optional(
            t.Object({ from: NamedLecturer, to: NamedLecturer, openCases: Type.Integer({ description: "open follow-up cases that move with the student" }) }, { additionalProperties: false }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    counts: ImportCounts,
    casesMoving: t.Array(t.Object({ ...NamedLecturer.properties, count: Integer() }, { additionalProperties: false }), {
      description: "decisions §19: the open follow-up cases that would move to each new advisor",
    }),
  },
  { additionalProperties: false },
);

export const ImportAnswer = t.Object(
  { counts: ImportCounts, di_bawah_18: t.Array(t.Object({ nim: t.String(), nama: t.Nullable(t.String()), usia: Integer() }, { additionalProperties: false })) },
  { additionalProperties: false },
);

/** Why a backup was taken (src/backup/backup-names.ts). */
const BackupKind = t.Union([t.Literal("terjadwal"), t.Literal("impor"), t.Literal("migrasi"), t.Literal("manual")]);

const BackupOutcome = t.Object(
  { ok: t.Boolean(), target: t.String(), removed: t.Optional(Integer()), reason: t.Optional(t.String()), kind: BackupKind, at: t.String() },
  { additionalProperties: false },
);

export const BackupsAnswer = t.Object(
  {
    jadwal: t.Nullable(
      t.Object(
        { folder: t.String(), everyMilliseconds: Integer(), keep: Integer(), nextDue: t.String(), running: t.Boolean(), encrypted: t.Boolean(), last: t.Nullable(BackupOutcome) },
        { additionalProperties: false },
      ),
    ),
    cadangan: t.Array(
      t.Object(
        {
          name: t.String(),
          size: Integer(),
          modifiedAt: t.String(),
          automatic: t.Boolean(),
          kind: t.Nullable(BackupKind),
          encrypted: t.Boolean(),
          takenBy: t.Union([t.String(), t.Null()]),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const BackupMade = t.Object({ message: t.String(), nama: t.String() }, { additionalProperties: false });

const Cell = t.Union([t.String(), t.Number(), t.Null()]);

export const AuditPage = t.Object(
  {
    data: t.Array(
      t.Object(
        {
          id: Cell,
          waktu: Cell,
          peran: Cell,
          pengguna: Cell,
          nama: Cell,
          alamat: Cell,
          aksi: Cell,
          kali: Cell,
          nim: Cell,
          target: Cell,
          keterangan: Cell,
          hash: Cell,
        },
        { additionalProperties: false },
      ),
    ),
    total: Integer(),
    page: Integer(),
    total_pages: Integer(),
  },
  { additionalProperties: false },
);

export const AuditVerdict = t.Object(
  { utuh: t.Boolean(), baris: Integer(), jangkar: t.Nullable(t.String()), jangkar_diperiksa: t.Nullable(t.String()), masalah: t.Array(t.String()) },
  { additionalProperties: false },
);

const TableCounts = t.Record(t.String(), Integer());

export const StudentRequest = t.Object(
  {
    nim: t.String(),
    nama: t.Nullable(t.String()),
    dibatasi_sejak: t.Nullable(t.String()),
    hapus: t.Object({ nim: t.String(), rows: TableCounts, files: t.Array(t.String()) }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);

export const Restricted = t.Object({ message: t.String(), skrining_keluar_statistik: Integer() }, { additionalProperties: false });
export const Unrestricted = t.Object({ message: t.String(), skrining_dihitung_lagi: Integer() }, { additionalProperties: false });

export const Erased = t.Object(
  { message: t.String(), baris: TableCounts, file: t.Array(t.String()), file_gagal_dihapus: t.Array(t.String()), wal_dikosongkan: t.Boolean() },
  { additionalProperties: false },
);

export const ModelItem = t.Object(
  {
    id: Integer(),
    type: t.Union([t.Literal("stress"), t.Literal("motivasi")]),
    file_path: t.String(),
    is_active: t.Boolean(),
    algorithm: t.String(),
    version: t.String(),
    metrics: t.Unknown(),
    source_sha256: t.String(),
    created_at: t.String(),
  },
  { additionalProperties: false },
);

export const ModelAdded = t.Object({ message: t.String(), model: ModelItem }, { additionalProperties: false });

/** Decisions §20: a rate, null where its denominator is 0. */
const Rate = t.Nullable(t.Number({ minimum: 0, maximum: 1 }));
const LevelRow = t.Object(
  {
    tingkat: level,
    positif_bila: t.String({ description: "the levels this row calls positive (predicting perlu_dukungan = ya)" }),
    tp: Integer(),
    fp: Integer(),
    fn: Integer(),
    tn: Integer(),
    sensitivitas: Rate,
    spesifisitas: Rate,
    ppv: Rate,
    npv: Rate,
  },
  { additionalProperties: false },
);
const CalibrationBin = t.Object({ dari: t.Number(), sampai: t.Number(), n: Integer(), rata_rata_prediksi: Rate, proporsi_ya: Rate }, { additionalProperties: false });
const CalibrationRow = t.Object({ tingkat: level, n: Integer(), brier: Rate, bin: t.Array(CalibrationBin) }, { additionalProperties: false });
const ModelValidation = t.Object(
  {
    id: Integer(),
    algoritma: t.String(),
    versi: t.String(),
    n: Integer(),
    per_tingkat: t.Array(LevelRow),
    kalibrasi: t.Nullable(t.Array(CalibrationRow)),
    keterangan: t.Array(t.String()),
  },
  { additionalProperties: false },
);
const TypeValidation = t.Object(
  {
    jenis: t.Union([t.Literal("stress"), t.Literal("motivasi")]),
    n: Integer(),
    ya: Integer(),
    tidak: Integer(),
    aturan_ambang: t.Object({ n: Integer(), per_tingkat: t.Array(LevelRow) }, { additionalProperties: false }),
    model: t.Nullable(ModelValidation),
    keterangan: t.Array(t.String()),
  },
  { additionalProperties: false },
);
const Reliability = t.Object(
  {
    alfa: t.Number(),
    simpangan_baku: t.Number(),
    n: Integer(),
    mahasiswa: Integer(),
    perubahan_andal_terkecil: t.Number(),
    sumber: t.Union([t.Literal("dihitung"), t.Literal("tetap")]),
    alasan_nilai_tetap: t.Nullable(t.Union([t.Literal("mahasiswa_kurang"), t.Literal("tanpa_variansi")])),
  },
  { additionalProperties: false },
);

/** `model validate --format json`, with the reliability of the stress score beside it (`stats reliability --json`). */
export const ValidationAnswer = t.Object(
  { catatan_bias_seleksi: t.String(), jenis: t.Array(TypeValidation), reliabilitas: Reliability },
  { additionalProperties: false },
);

export const ModelTry = t.Object({ kolom: t.Array(t.String()), baris: t.Array(t.Array(t.String())), jumlah: Integer(), csv: t.String() }, { additionalProperties: false });

const NoticeText = t.Object({ version: t.String(), title: t.String(), text: t.String() }, { additionalProperties: false });

export const TextsAnswer = t.Object({ bantuan: HelpContactResponse, pemberitahuan: NoticeText, keselamatan: SafetyState }, { additionalProperties: false });
export const HelpSaved = t.Object({ message: t.String(), bantuan: HelpContactResponse }, { additionalProperties: false });
export const NoticeSaved = t.Object({ message: t.String(), pemberitahuan: NoticeText, versi_baru: t.Boolean() }, { additionalProperties: false });

export const FacultyStatistics = t.Object(
  {
    per_dosen: t.Array(
      t.Object(
        {
          NIP: t.String(),
          nama_dosen: t.String(),
          total_mahasiswa: Integer(),
          sudah_skrining: Integer(),
          belum_skrining: Integer(),
          stress_dist: Level,
          motivasi_dist: Level,
          terbuka: Integer(),
          baru: Integer(),
          lebih_dari_7_hari: Integer(),
          terlambat: Integer(),
          median_hari_ke_kontak_pertama: t.Nullable(t.Number()),
        },
        { additionalProperties: false },
      ),
    ),
    csv_bawaan: t.Union([t.Literal("excel-id"), t.Literal("standard")]),
  },
  { additionalProperties: false },
);

export const CertificateAnswer = t.Object(
  {
    https: t.Boolean(),
    ca_lokal: t.Boolean(),
    dapat_diperbarui: t.Boolean(),
    sidik_jari: t.Nullable(t.String()),
    berakhir: t.Nullable(t.String()),
    hari_tersisa: t.Nullable(Integer()),
    nama: t.Array(t.String()),
    alamat: t.Array(t.String()),
    peringatan: t.Array(t.String()),
    alamat_https: t.Array(t.String()),
    halaman_sertifikat: t.Array(t.String()),
    qr: t.Nullable(t.Object({ size: Integer(), path: t.String() }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);

export const CertificateRenewed = t.Object({ message: t.String(), berakhir: t.String() }, { additionalProperties: false });

/** One row's figures of the weekly follow-up report (`followup report --week --format json`; the keys of figures.ts's WeeklyFigures, which a test holds equal). */
const WeeklyFiguresProperties = {
  dibuka: Integer(),
  dihubungi: Integer(),
  dirujuk: Integer(),
  selesai: Integer(),
  kontak_berhasil: Integer(),
  kontak_tidak_merespons: Integer(),
  kontak_dijadwalkan: Integer(),
  selesai_teratasi: Integer(),
  selesai_dirujuk_layanan_konseling: Integer(),
  selesai_tidak_merespons: Integer(),
  selesai_mahasiswa_menolak: Integer(),
  selesai_lainnya: Integer(),
  selesai_tidak_dicatat: Integer(),
  terbuka_lebih_dari_7_hari: Integer(),
  terlambat: Integer(),
  median_hari_ke_kontak_pertama: t.Nullable(t.Number()),
};

/** The weekly follow-up report of the console's Statistik fakultas (issue 44, item 15): the command's JSON. */
export const WeeklyReportAnswer = t.Object(
  {
    minggu: t.String(),
    mulai: t.String(),
    sampai: t.String(),
    zona_waktu: t.String(),
    per_dosen: t.Array(t.Object({ NIP: t.Nullable(t.String()), nama_dosen: t.Nullable(t.String()), ...WeeklyFiguresProperties }, { additionalProperties: false })),
    fakultas: t.Object(WeeklyFiguresProperties, { additionalProperties: false }),
  },
  { additionalProperties: false },
);
