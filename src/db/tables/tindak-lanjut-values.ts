// The values of a follow-up case's columns, in a file of their own (no drizzle) so that the
// web interface's status form offers the same ones (through src/modules/tindak-lanjut/moves.ts).

/** A follow-up case's status (decisions: Follow-up cases); every status but `selesai` is open. */
export const followUpStatuses = ["baru", "dihubungi", "dirujuk", "selesai"] as const;
export type TindakLanjutStatus = (typeof followUpStatuses)[number];

/** How a contact attempt went (decisions §19, `hasil_kontak`): required for every move to `dihubungi`. */
export const contactOutcomes = ["berhasil", "tidak_merespons", "dijadwalkan"] as const;
export type ContactOutcome = (typeof contactOutcomes)[number];

/** Why a case was closed (decisions §19, `alasan_selesai`): required for every move to `selesai`. */
export const closingReasons = ["teratasi", "dirujuk_layanan_konseling", "tidak_merespons", "mahasiswa_menolak", "lainnya"] as const;
export type ClosingReason = (typeof closingReasons)[number];
