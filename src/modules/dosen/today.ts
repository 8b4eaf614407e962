import type { Database } from "bun:sqlite";
import type { DatabaseClient } from "../../db";
import type { Principal } from "../../requests/principal";
import type { Level } from "../../skrining/scoring";
import { NewReplies } from "../catatan/new-replies";
import type { CaseReader } from "../tindak-lanjut/cases";

/** How many of each group the first page lists; the counts say how many there are. */
export const todayListLength = 10;

interface StudentName {
  nim: string;
  nama: string | null;
  advisor: string | null;
  /** The student's open case the lecturer handles, and the latest case of the student they handled at all. */
  handledOpen: number | null;
  handledLatest: number | null;
}

interface AtRiskRow {
  nim: string;
  nama: string | null;
  tanggal: string;
  stres: Level;
  motivasi: Level;
  earlyWarning: number;
  veryHigh: number;
  openCase: number | null;
}

/**
 * Decisions §19, a lecturer's first page, "who needs me today": the open cases they handle
 * that wait for them (late first, then new ones and students' requests), the closings of
 * their advisees' cases another lecturer handled, the students whose replies are new for
 * them, then their advisees at risk (an early warning, or a very high stress score, by the
 * latest screening). Each group its first ten with how many there are; and how many advisees
 * and cases the lecturer has at all, which decides where they land.
 */
export class TodayService {
  private readonly newReplies: NewReplies;
  private readonly studentsNamed;
  private readonly atRisk;
  private readonly atRiskCount;
  private readonly adviseeCount;
  private readonly handledCount;

  constructor(
    db: DatabaseClient,
    private readonly cases: CaseReader,
    followUpStressMin: number,
  ) {
    const sqlite: Database = db.$client;
    this.newReplies = new NewReplies(db);
    this.studentsNamed = sqlite.prepare<StudentName, [{ nims: string; nip: string }]>(
      `SELECT NIM AS nim, nama_mahasiswa AS nama, NIP_doswal AS advisor,
         (SELECT Id_tindak_lanjut FROM tindak_lanjut WHERE NIM = student.NIM AND NIP = $nip AND status <> 'selesai') AS handledOpen,
         (SELECT Id_tindak_lanjut FROM tindak_lanjut WHERE NIM = student.NIM AND NIP = $nip ORDER BY dibuka_pada DESC LIMIT 1) AS handledLatest
       FROM mahasiswa AS student WHERE NIM IN (SELECT value FROM json_each($nims))`,
    );
    // The summary's own index (latest_skrining (NIP, ...)): NIP is the advisor, null while the student is restricted.
    const atRisk = `latest.NIP = $nip AND (latest.early_warning = 1 OR latest.score_stress >= ${followUpStressMin})`;
    this.atRisk = sqlite.prepare<AtRiskRow, [{ nip: string; limit: number }]>(
      `SELECT latest.NIM AS nim, student.nama_mahasiswa AS nama, latest.tanggal_skrining AS tanggal, latest.tingkat_stres AS stres, latest.tingkat_motivasi AS motivasi,
         latest.early_warning AS earlyWarning, coalesce(latest.score_stress >= ${followUpStressMin}, 0) AS veryHigh,
         (SELECT Id_tindak_lanjut FROM tindak_lanjut WHERE NIM = latest.NIM AND status <> 'selesai') AS openCase
       FROM latest_skrining AS latest JOIN mahasiswa AS student ON student.NIM = latest.NIM
       WHERE ${atRisk} ORDER BY latest.tanggal_skrining DESC, latest.NIM LIMIT $limit`,
    );
    this.atRiskCount = sqlite.prepare<{ n: number }, [{ nip: string }]>(`SELECT count(*) AS n FROM latest_skrining AS latest WHERE ${atRisk}`);
    this.adviseeCount = sqlite.prepare<{ n: number }, [string]>("SELECT count(*) AS n FROM mahasiswa WHERE NIP_doswal = ?");
    this.handledCount = sqlite.prepare<{ n: number }, [string]>("SELECT count(*) AS n FROM tindak_lanjut WHERE NIP = ?");
  }

  /** The page of the lecturer `principal` (a `dosen` account without a lecturer profile has an empty one). */
  of(principal: Principal) {
    const nip = principal.nip;
    const now = Date.now();
    if (nip === null) return emptyToday();
    const waiting = this.cases.waitingFor(principal, now, todayListLength);
    const closed = this.cases.closedNewsFor(principal, now);
    const replied = this.newReplies.studentsFor(nip);
    const named = new Map(this.studentsNamed.all({ nims: JSON.stringify(replied.slice(0, todayListLength).map((row) => row.nim)), nip }).map((row) => [row.nim, row]));
    const balasan = replied.slice(0, todayListLength).flatMap((row) => {
      const student = named.get(row.nim);
      if (!student) return [];
      return [
        {
          NIM: row.nim,
          nama_mahasiswa: student.nama,
          balasan_baru: row.replies,
          tanggal_balasan: row.latest,
          // The student's page is theirs to open as the advisor or the open case's handler; else the case they handled, if any.
          dapat_dibuka: student.advisor === nip || student.handledOpen !== null,
          id_tindak_lanjut: student.handledLatest,
        },
      ];
    });
    const atRisk = this.atRisk.all({ nip, limit: todayListLength }).map((row) => ({
      NIM: row.nim,
      nama_mahasiswa: row.nama,
      tanggal_skrining: row.tanggal,
      tingkat_stres: row.stres,
      tingkat_motivasi: row.motivasi,
      early_warning: row.earlyWarning === 1,
      stres_sangat_tinggi: row.veryHigh === 1,
      id_tindak_lanjut: row.openCase,
    }));
    return {
      kasus: waiting.cases,
      baru_ditutup: closed.slice(0, todayListLength),
      balasan,
      berisiko: atRisk,
      jumlah: {
        kasus: waiting.total,
        baru_ditutup: closed.length,
        balasan: replied.length,
        berisiko: this.atRiskCount.get({ nip })!.n,
        bimbingan: this.adviseeCount.get(nip)!.n,
        ditangani: this.handledCount.get(nip)!.n,
      },
    };
  }
}

function emptyToday() {
  return { kasus: [], baru_ditutup: [], balasan: [], berisiko: [], jumlah: { kasus: 0, baru_ditutup: 0, balasan: 0, berisiko: 0, bimbingan: 0, ditangani: 0 } };
}
