// Texts of the student's pages.

export const student = {
  nav: {
    beranda: "Beranda",
    kuesioner: "Kuesioner",
    hasil: "Hasil",
    riwayat: "Riwayat",
    mood: "Mood",
    jurnal: "Jurnal",
    catatan: "Catatan dosen",
    profil: "Profil",
  },
} as const;
