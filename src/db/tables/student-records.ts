// What a student and their lecturer write: counselling notes, the mood log and the diary.
import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { dosen, mahasiswa } from "./people";

export const catatanKonseling = sqliteTable(
  "catatan_konseling",
  {
    id: integer("Id_catatan").primaryKey({ autoIncrement: true }),
    nim: text("NIM")
      .notNull()
      .references(() => mahasiswa.nim, { onDelete: "restrict", onUpdate: "cascade" }),
    nip: text("NIP")
      .notNull()
      .references(() => dosen.nip, { onDelete: "restrict", onUpdate: "cascade" }),
    isi: text("isi_catatan").notNull(),
    tanggalCatat: text("tanggal_catat").notNull(),
    reply: text("reply").notNull().default(""),
    tanggalReply: text("tanggal_reply"),
    /** When the note's student first opened it (decisions §13); null while unread. */
    dibacaMahasiswaPada: text("dibaca_mahasiswa_pada"),
    /** When the note's lecturer first saw the reply as it stands; null while unseen, and again after the student edits it. */
    balasanDibacaDosenPada: text("balasan_dibaca_dosen_pada"),
    /**
     * Decisions §19: the advisor (NIP) who saw the reply as it stands, when the note is
     * another lecturer's; a reply is new for the student's current advisor until this names
     * them. Null again after the student edits the reply.
     */
    balasanDilihatDoswal: text("balasan_dilihat_doswal"),
  },
  (table) => [
    index("catatan_nim_index").on(table.nim, table.tanggalCatat),
    index("catatan_nip_index").on(table.nip),
  ],
);

export const moodEntries = sqliteTable(
  "mood_entries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    nim: text("nim")
      .notNull()
      .references(() => mahasiswa.nim, { onDelete: "restrict", onUpdate: "cascade" }),
    date: text("date").notNull(),
    moodValue: integer("mood_value").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [
    check("mood_value_check", sql`${table.moodValue} BETWEEN 1 AND 5`),
    uniqueIndex("mood_nim_date_index").on(table.nim, table.date),
  ],
);

export const diaryEntries = sqliteTable(
  "diary_entries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    nim: text("nim")
      .notNull()
      .references(() => mahasiswa.nim, { onDelete: "restrict", onUpdate: "cascade" }),
    date: text("date").notNull(),
    title: text("title").notNull().default(""),
    content: text("content").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    /** Decisions §19: the student shared the entry with her advisor (and the handler of her open case); private by default. */
    dibagikan: integer("dibagikan", { mode: "boolean" }).notNull().default(false),
  },
  (table) => [index("diary_nim_date_index").on(table.nim, table.date, table.createdAt)],
);
