import { setSystemTime } from "bun:test";
import { lecturerService, studentsCsv, type Lecturers } from "../dosen/support";

// A fixed dataset of cases with hand-written timelines, and "now" fixed at Friday
// 2026-03-20 00:00 UTC (07:00 in Asia/Jakarta), with the contact target at its default (3
// days: a case opened on or before 03-17 00:00 and not reached is late). Every expected
// figure below is counted by hand from this table. Moves into dihubungi without an outcome
// were recorded before outcomes were asked for: they reached the student (decisions §19).
//
// case  student      owner  timeline (UTC)                                                   now
//  1    N001         D001   baru 03-10                                                       open 10 days, baru, late
//  2    N010         D001   baru 03-16, dihubungi 03-17                                      open, contact after 1.0 day
//  3    N011         D001   baru 02-01, dihubungi 02-04 12:00, selesai 02-10                 closed, contact 3.5 days
//  4    N002         D002   baru 03-01, dihubungi 03-02, dirujuk 03-05                       open 19 days, contact 1.0 day
//  5    N012         D002   baru 01-01, dihubungi 01-11, selesai 01-12, baru 03-18 (reopen)  open 2 days, baru, contact 10.0 days
//  6    N013         none   baru 03-12 12:00                                                 open 7.5 days, baru, late
//  7    N014 (restricted) D001 baru 01-01                                                    left out of every figure
//  8    N001         D001   baru 01-05, selesai 01-05 06:00                                  closed, no contact (a closing is none)
//  9    N020         D003   baru 03-13, dihubungi 03-13                                      open exactly 7 days (not more), contact 0 days
// 10    N021         D003   baru 03-15, dihubungi 03-16 tidak_merespons, 03-18 dijadwalkan   open, contact 3.0 days (the second attempt)
// 11    N022         D003   baru 03-16 12:00, dihubungi 03-17 tidak_merespons                open 3.5 days, not reached: late
// 12    N023 (D001's) D003  baru 03-01, dirujuk 03-02, selesai 03-19 dirujuk_layanan_konseling  closed, no contact (a referral is none);
//                                                                                            news for its advisor D001

export const now = Date.parse("2026-03-20T00:00:00.000Z");

export type Entry = [from: string | null, to: string, waktu: string, recorded?: { hasil_kontak?: string; alasan_selesai?: string; perlu_dukungan?: number }];
export const cases: [id: number, nim: string, nip: string | null, entries: Entry[]][] = [
  [1, "N001", "D001", [[null, "baru", "2026-03-10T00:00:00.000Z"]]],
  [2, "N010", "D001", [[null, "baru", "2026-03-16T00:00:00.000Z"], ["baru", "dihubungi", "2026-03-17T00:00:00.000Z"]]],
  [3, "N011", "D001", [[null, "baru", "2026-02-01T00:00:00.000Z"], ["baru", "dihubungi", "2026-02-04T12:00:00.000Z"], ["dihubungi", "selesai", "2026-02-10T00:00:00.000Z"]]],
  [4, "N002", "D002", [[null, "baru", "2026-03-01T00:00:00.000Z"], ["baru", "dihubungi", "2026-03-02T00:00:00.000Z"], ["dihubungi", "dirujuk", "2026-03-05T00:00:00.000Z"]]],
  [5, "N012", "D002", [[null, "baru", "2026-01-01T00:00:00.000Z"], ["baru", "dihubungi", "2026-01-11T00:00:00.000Z"], ["dihubungi", "selesai", "2026-01-12T00:00:00.000Z"], ["selesai", "baru", "2026-03-18T00:00:00.000Z"]]],
  [6, "N013", null, [[null, "baru", "2026-03-12T12:00:00.000Z"]]],
  [7, "N014", "D001", [[null, "baru", "2026-01-01T00:00:00.000Z"]]],
  [8, "N001", "D001", [[null, "baru", "2026-01-05T00:00:00.000Z"], ["baru", "selesai", "2026-01-05T06:00:00.000Z"]]],
  [9, "N020", "D003", [[null, "baru", "2026-03-13T00:00:00.000Z"], ["baru", "dihubungi", "2026-03-13T00:00:00.000Z"]]],
  [
    10,
    "N021",
    "D003",
    [
      [null, "baru", "2026-03-15T00:00:00.000Z"],
      ["baru", "dihubungi", "2026-03-16T00:00:00.000Z", { hasil_kontak: "tidak_merespons" }],
      ["dihubungi", "dihubungi", "2026-03-18T00:00:00.000Z", { hasil_kontak: "dijadwalkan" }],
    ],
  ],
  [11, "N022", "D003", [[null, "baru", "2026-03-16T12:00:00.000Z"], ["baru", "dihubungi", "2026-03-17T00:00:00.000Z", { hasil_kontak: "tidak_merespons" }]]],
  [
    12,
    "N023",
    "D003",
    [
      [null, "baru", "2026-03-01T00:00:00.000Z"],
      ["baru", "dirujuk", "2026-03-02T00:00:00.000Z"],
      ["dirujuk", "selesai", "2026-03-19T00:00:00.000Z", { alasan_selesai: "dirujuk_layanan_konseling", perlu_dukungan: 1 }],
    ],
  ],
];

/** Whether an entry reached the student (decisions §19), as figures.ts reads the timeline. */
export const reaches = ([from, to, , recorded]: Entry) => to === "dihubungi" && (recorded?.hasil_kontak === undefined ? from !== "dihubungi" : ["berhasil", "dijadwalkan"].includes(recorded.hasil_kontak));


/** A lecturers' service holding the cases above, with the clock set to `now` (set it back after). */
export async function figuresService(): Promise<Lecturers> {
  setSystemTime(now);
  const lecturers = await lecturerService(
    studentsCsv([
      ["N010", "Sepuluh", "D001"],
      ["N011", "Sebelas", "D001"],
      ["N012", "Dua Belas", "D002"],
      ["N013", "Tiga Belas", ""],
      ["N014", "Empat Belas", "D001"],
      ["N020", "Dua Puluh", "D003"],
      ["N021", "Dua Puluh Satu", "D003"],
      ["N022", "Dua Puluh Dua", "D003"],
      ["N023", "Dua Puluh Tiga", "D001"],
    ]),
  );
  lecturers.service.context.db.$client.run("UPDATE mahasiswa SET dibatasi_sejak = '2026-02-01T00:00:00.000Z' WHERE NIM = 'N014'");
  // Each case's columns are what its timeline says: the status of the last entry, the last opening, the first contact after it, the closing.
  for (const [id, nim, nip, entries] of cases) {
    const last = entries.at(-1)!;
    const openingIndex = entries.findLastIndex(([from, to]) => to === "baru" && from !== "baru");
    const contact = entries.slice(openingIndex + 1).find(reaches);
    const closed = last[1] === "selesai";
    lecturers.service.context.db.$client.run(
      `INSERT INTO tindak_lanjut (Id_tindak_lanjut, NIM, NIP, alasan_early_warning, alasan_perubahan_mendadak, status, dibuka_pada, pertama_dihubungi_pada, ditutup_pada, diperbarui_pada, alasan_selesai, perlu_dukungan)
       VALUES (?, ?, ?, 1, 0, ?, ?, ?, ?, ?, ?, ?)`,
      [id, nim, nip, last[1], entries[openingIndex]![2], contact?.[2] ?? null, closed ? last[2] : null, last[2], closed ? (last[3]?.alasan_selesai ?? null) : null, closed ? (last[3]?.perlu_dukungan ?? null) : null],
    );
    for (const [from, to, waktu, recorded] of entries) {
      lecturers.service.context.db.$client.run(
        "INSERT INTO tindak_lanjut_riwayat (Id_tindak_lanjut, status_dari, status_ke, catatan, nama, waktu, hasil_kontak, alasan_selesai, perlu_dukungan) VALUES (?, ?, ?, 'catatan', 'Dosen', ?, ?, ?, ?)",
        [id, from, to, waktu, recorded?.hasil_kontak ?? null, recorded?.alasan_selesai ?? null, recorded?.perlu_dukungan ?? null],
      );
    }
  }
  return lecturers;
}
