// Texts of the privacy notice (at activation and at the first sign-in after a new version)
// and of the student's "Data saya" page.

const roles: Record<string, string> = { dosen: "Dosen", admin: "Admin", cli: "Admin (perintah di server)", mahasiswa: "Mahasiswa" };

const actions: Record<string, string> = {
  view: "melihat",
  export: "mengekspor",
  create: "menambah",
  update: "mengubah",
  delete: "menghapus",
  password: "mengganti password",
  activate: "mengaktifkan akun",
  login: "masuk",
  login_failed: "gagal masuk",
  model: "model prediksi",
  accounts_import: "impor akun",
  privacy: "tindakan privasi",
};

/** What part of the student's data a route of the audit trail concerns, the first that fits; a command is shown as it was typed. */
const parts: [RegExp, string][] = [
  [/\/mood/, "mood"],
  [/\/diary/, "jurnal"],
  [/catatan/, "catatan dosen wali"],
  [/\/profil\/foto/, "foto profil"],
  [/\/profil/, "profil"],
  [/\/(hasil|history|kuesioner|can_submit)/, "hasil skrining"],
  [/\/dosen\/mahasiswa\/:nim/, "halaman detail mahasiswa"],
  [/\/dosen\/mahasiswa/, "daftar mahasiswa bimbingan"],
  [/\/privasi/, "pemberitahuan privasi"],
];

export const privacy = {
  version: (version: string) => `Versi ${version}`,

  activation: {
    formTitle: "Aktivasi akun",
    consent: (version: string) => `Dengan menekan "Aktivasi dan setujui", Anda menyatakan telah membaca dan menyetujui pemberitahuan privasi di atas (versi ${version}).`,
    submit: "Aktivasi dan setujui",
    noticeUnavailable: "Pemberitahuan privasi belum dapat dimuat. Anda tetap dapat aktivasi; pemberitahuan itu ditampilkan saat Anda pertama kali masuk.",
  },

  gate: {
    title: "Pemberitahuan privasi",
    intro: "Sebelum melanjutkan, baca pemberitahuan privasi ini. Anda perlu menyetujuinya sekali untuk setiap versi.",
    accept: "Saya sudah membaca dan menyetujui",
    accepting: "Menyimpan persetujuan…",
    decline: "Tidak sekarang, keluar",
    declineHint: "Bila tidak setuju, Anda dapat keluar dan menghubungi admin fakultas.",
    unavailable: "Pemberitahuan privasi belum dapat dimuat.",
  },

  dataSaya: {
    title: "Data saya",
    intro: "Semua data Anda yang disimpan skrining, dan siapa saja selain Anda yang membukanya. Anda berhak atas salinannya (UU 27/2022).",
    made: (time: string) => `Disusun ${time}.`,
    download: "Unduh data saya (JSON)",
    downloadHint: "Satu file berisi semua data di halaman ini, termasuk setiap jawaban kuesioner.",
    fileName: (nim: string, date: string) => `data-saya-${nim || "mahasiswa"}-${date}.json`,
    rightsTitle: "Memperbaiki, menghapus atau membatasi data",
    rights:
      "Data profil dapat Anda perbaiki di halaman Profil. Untuk memperbaiki data lain, meminta data dihapus, meminta pemrosesannya dibatasi, menarik persetujuan atau mengajukan keberatan, hubungi admin fakultas: permintaan dijawab paling lambat 3 × 24 jam.",
    restricted: (time: string) =>
      `Pemrosesan data Anda dibatasi sejak ${time}: dosen wali dan admin hanya melihat bahwa data Anda dibatasi, dan data Anda tidak masuk statistik maupun ekspor. Anda tetap melihat semua data Anda di sini.`,

    profileTitle: "Profil",
    profileLabels: {
      nim: "NIM",
      nama: "Nama",
      program: "Program studi",
      angkatan: "Angkatan",
      kelas: "Kelas",
      ipk: "IPK",
      gender: "Jenis kelamin",
      usia: "Usia",
      freq_olahraga: "Olahraga",
      durasi_tidur: "Tidur",
      nip_doswal: "NIP dosen wali",
      nama_dosen_wali: "Dosen wali",
    } as Record<string, string>,
    notSet: "Belum diisi",
    photoAlt: "Foto profil Anda",

    screeningTitle: "Skrining",
    screeningEmpty: "Belum ada skrining.",
    screeningHeading: (date: string) => `Skrining ${date}`,
    stress: "Stres",
    motivation: "Motivasi",
    score: (score: string) => `skor ${score}`,
    answers: (count: number) => `Jawaban (${count})`,
    answerTerm: "Butir",
    answerValue: "Jawaban",

    moodTitle: "Mood",
    moodEmpty: "Belum ada mood yang dicatat.",
    moodCaption: (count: number) => `${count} catatan mood, tanggal terbaru dulu`,
    moodColumns: ["Tanggal", "Mood"] as const,

    diaryTitle: "Jurnal",
    diaryEmpty: "Belum ada jurnal.",
    untitled: "Tanpa judul",

    notesTitle: "Catatan dosen wali",
    notesEmpty: "Belum ada catatan dari dosen wali.",
    noteHeading: (date: string) => `Catatan ${date}`,
    noteFrom: (nip: string) => `Dari dosen dengan NIP ${nip}`,
    reply: (date: string) => `Balasan Anda (${date})`,
    noReply: "Belum dibalas.",

    consentTitle: "Persetujuan pemberitahuan privasi",
    consentEmpty: "Belum ada persetujuan yang tercatat.",
    consentItem: (version: string, time: string) => `Versi ${version}, disetujui ${time}`,

    accessTitle: "Siapa yang membuka data Anda",
    accessIntro: "Setiap kali dosen, admin, atau perintah admin di server membuka, mengekspor atau mengubah data Anda, hal itu tercatat di sini. Alamat jaringan mereka tidak ditampilkan.",
    accessEmpty: "Belum ada orang lain yang membuka data Anda.",
    accessCaption: (count: number) => `${count} akses oleh orang lain, terbaru dulu`,
    access: (who: string, action: string, part: string, times: number) => `${who}: ${action} ${part}${times > 1 ? ` (${times} kali)` : ""}`,
    who: (role: string, name: string | null) => `${roles[role] ?? role}${name ? ` · ${name}` : ""}`,
    action: (action: string) => actions[action] ?? action,
    part: (target: string) => parts.find(([pattern]) => pattern.test(target))?.[1] ?? target,
  },
} as const;
