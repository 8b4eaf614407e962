// A student's counselling notes as staff read them: each signed with its author (decisions
// §19), whether the student read it, and the reply, marked new while the reader has not seen
// it. The student's page, the page of a student who moved away and the case page show them.
import { formatDateTime } from "../../format";
import { staff } from "../../strings";
import type { Catatan } from "../../types";

const text = staff.notes;

export function NoteList(props: { notes: readonly Catatan[] }) {
  return (
    <ol class="note-list">
      {props.notes.map((note) => (
        <li key={note.Id_catatan} class="card">
          <h3 class="section-card-title">{text.written(formatDateTime(note.tanggal_catat))}</h3>
          <p class="student-meta">{text.author(note.nama_dosen || note.NIP)}</p>
          <p class="badge-row">
            {note.status === "sudah_dibalas" ? <span class="badge badge-success">{text.replied}</span> : <span class="badge badge-neutral">{text.notReplied}</span>}
            {note.balasan_baru && <span class="badge badge-warning">{text.newReply}</span>}
          </p>
          <p class="student-meta">{note.dibaca_mahasiswa_pada ? text.readOn(formatDateTime(note.dibaca_mahasiswa_pada)) : text.unread}</p>
          <p class="note-text">{note.isi_catatan}</p>
          {note.reply && (
            <div class="note-reply">
              <p class="note-reply-head">{text.reply(note.tanggal_reply && formatDateTime(note.tanggal_reply))}</p>
              <p class="note-text">{note.reply}</p>
            </div>
          )}
        </li>
      ))}
    </ol>
  );
}
