import { eq } from "drizzle-orm";
import { appendAuditRows, type AuditSource } from "../../audit/trail";
import { phoneNumberPattern } from "../../konten/help-phone";
import type { DatabaseClient } from "../../db";
import { preparedOnFirstUse } from "../../db/prepared";
import { pertanyaanKeselamatan } from "../../db/schema";
import type { WriteQueue } from "../../db/write-queue";
import { invalid } from "../../errors";
import { nowIso } from "../../records";
import { safetyQuestion } from "../../skrining/safety-question";

// Decisions §20: the optional safety question, off by default. An admin turns it on with
// the person who answers the same day (`skrining safety on`, the console's Teks page); the
// questionnaire's page asks it while it is on; the submission's job reads the same row in
// its own transaction (src/modules/skrining/measures.ts).

export const safetyMessages = {
  contactRequired: "Nama kontak wajib diisi (1-100 karakter): orang yang menjawab pada hari yang sama.",
  phoneInvalid: "Nomor telepon kontak wajib diisi: angka, boleh dengan +, spasi, tanda kurung dan - (3-24 karakter).",
  turnedOn: (nama: string, telepon: string) =>
    `Pertanyaan keselamatan aktif: ditanyakan setelah 68 butir kuesioner. Jawaban 3 atau lebih membuka tindak lanjut mendesak, dan mahasiswa diarahkan ke ${nama} (${telepon}).`,
  turnedOff: "Pertanyaan keselamatan nonaktif: tidak ditanyakan lagi, dan jawabannya diabaikan bila dikirim.",
  aktifBoolean: "aktif harus true atau false.",
} as const;

const contactNameMax = 100;

/** The setting as the console and the command show it. */
export interface SafetyState {
  aktif: boolean;
  nama_kontak: string | null;
  telepon_kontak: string | null;
  diubah_pada: string | null;
}

/** What the questionnaire's page needs: whether to ask, what, and whom to point to. */
export interface SafetyForStudents {
  aktif: boolean;
  pertanyaan: string | null;
  skala: { min: number; max: number };
  pilihan: string[];
  kontak: { nama: string; telepon: string } | null;
}

export class SafetyQuestionService {
  private readonly read;

  constructor(
    private readonly db: DatabaseClient,
    private readonly writes: WriteQueue,
  ) {
    this.read = preparedOnFirstUse(() =>
      db
        .select({ aktif: pertanyaanKeselamatan.aktif, nama: pertanyaanKeselamatan.namaKontak, telepon: pertanyaanKeselamatan.teleponKontak, diubah: pertanyaanKeselamatan.diubahPada })
        .from(pertanyaanKeselamatan)
        .where(eq(pertanyaanKeselamatan.id, 1))
        .prepare(),
    );
  }

  current(): SafetyState {
    const row = this.read.get();
    return { aktif: row?.aktif === true, nama_kontak: row?.nama ?? null, telepon_kontak: row?.telepon ?? null, diubah_pada: row?.diubah ?? null };
  }

  /** The one row's new state, with its audit row, in one job. */
  private async change(values: Partial<typeof pertanyaanKeselamatan.$inferInsert>, source: AuditSource, detail: string): Promise<void> {
    await this.writes.run(() => {
      this.db.update(pertanyaanKeselamatan).set({ ...values, diubahPada: nowIso() }).where(eq(pertanyaanKeselamatan.id, 1)).run();
      appendAuditRows(this.db.$client, [{ ...source, action: "update", detail }]);
    });
  }

  forStudents(): SafetyForStudents {
    const state = this.current();
    const on = state.aktif && state.nama_kontak !== null && state.telepon_kontak !== null;
    return {
      aktif: on,
      pertanyaan: on ? safetyQuestion.text : null,
      skala: { ...safetyQuestion.scale },
      pilihan: [...safetyQuestion.words],
      kontak: on ? { nama: state.nama_kontak!, telepon: state.telepon_kontak! } : null,
    };
  }

  /** Turns the question on with its contact (both checked first; nothing changes on a problem), with its audit row. */
  async turnOn(nama: unknown, telepon: unknown, source: AuditSource): Promise<{ message: string; keselamatan: SafetyState }> {
    const name = typeof nama === "string" ? nama.trim() : "";
    if (name === "" || name.length > contactNameMax) throw invalid(safetyMessages.contactRequired);
    const phone = typeof telepon === "string" ? telepon.trim() : "";
    if (!phoneNumberPattern.test(phone)) throw invalid(safetyMessages.phoneInvalid);
    await this.change({ aktif: true, namaKontak: name, teleponKontak: phone }, source, `pertanyaan keselamatan aktif; kontak ${name} (${phone})`);
    return { message: safetyMessages.turnedOn(name, phone), keselamatan: this.current() };
  }

  /** The console's form: on with its contact, or off. */
  set(aktif: unknown, nama: unknown, telepon: unknown, source: AuditSource) {
    if (typeof aktif !== "boolean") throw invalid(safetyMessages.aktifBoolean);
    return aktif ? this.turnOn(nama, telepon, source) : this.turnOff(source);
  }

  /** Turns the question off; the contact is kept for the next `on` and for earlier critical answers' students. */
  async turnOff(source: AuditSource): Promise<{ message: string; keselamatan: SafetyState }> {
    await this.change({ aktif: false }, source, "pertanyaan keselamatan nonaktif");
    return { message: safetyMessages.turnedOff, keselamatan: this.current() };
  }
}
