// Decisions §13: a student's open follow-up cases go with their advisor. When NIP_doswal
// changes (a roster import, `accounts add`, an admin's edit, the sqlite3 shell), every open
// case whose handler was the former advisor moves to the new one, with a timeline entry by
// `Sistem`; a case an admin handed to a third lecturer stays with them. Decisions §19: the
// change itself is recorded with both names (pergantian_dosen_wali), for the student's
// notice and the former advisor's page. A trigger, so that every writer keeps the rule
// inside its own transaction, like the summary triggers.
//
// Not a change of advisor: a lecturer's NIP renamed or the lecturer deleted (the foreign
// keys cascade, and the former NIP is then gone from dosen) — the cases' own foreign key
// follows those. A NIM changed in the same statement may or may not have reached the cases
// yet, so both are matched.

const now = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";
const lecturerNamed = (nip: string) =>
  `coalesce((SELECT coalesce(nullif(nama_dosen, ''), NIP) || ' (' || NIP || ')' FROM dosen WHERE NIP = ${nip}), 'tanpa dosen wali')`;
const movedCases = "NIM IN (OLD.NIM, NEW.NIM) AND status <> 'selesai' AND NIP IS OLD.NIP_doswal";
const nameOf = (nip: string) => `(SELECT nullif(nama_dosen, '') FROM dosen WHERE NIP = ${nip})`;

/** The author the timeline names for what the service does by itself. */
export const systemAuthor = "Sistem";

export const followUpMovesWithAdvisor = `AFTER UPDATE OF NIP_doswal ON mahasiswa
      WHEN OLD.NIP_doswal IS NOT NEW.NIP_doswal AND (OLD.NIP_doswal IS NULL OR EXISTS (SELECT 1 FROM dosen WHERE NIP = OLD.NIP_doswal))
      BEGIN
        INSERT INTO pergantian_dosen_wali (NIM, NIP_sebelumnya, NIP_baru, nama_sebelumnya, nama_baru, waktu)
        VALUES (NEW.NIM, OLD.NIP_doswal, NEW.NIP_doswal, ${nameOf("OLD.NIP_doswal")}, ${nameOf("NEW.NIP_doswal")}, ${now});
        INSERT INTO tindak_lanjut_riwayat (Id_tindak_lanjut, status_dari, status_ke, catatan, Id_User, nama, waktu)
        SELECT Id_tindak_lanjut, status, status,
          substr('Dosen wali mahasiswa berganti dari ' || ${lecturerNamed("OLD.NIP_doswal")} || ' ke ' || ${lecturerNamed("NEW.NIP_doswal")}
            || '; tindak lanjut yang terbuka ikut berpindah ke dosen wali yang baru.', 1, 2000),
          NULL, '${systemAuthor}', ${now}
        FROM tindak_lanjut WHERE ${movedCases};
        UPDATE tindak_lanjut SET NIP = NEW.NIP_doswal, diperbarui_pada = ${now} WHERE ${movedCases};
      END`;
