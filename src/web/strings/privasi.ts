// Texts of the privacy notice (at activation and at the first sign-in after a new version)
// and of the student's "Data saya" page.

/** Who acted, when the trail has no name (a command, a read without signing in, an erased account). */
const nobodyNamed: Record<string, string> = {
  dosen: "Seorang dosen",
  admin: "Seorang admin",
  cli: "Admin fakultas",
  anonim: "Seseorang tanpa masuk",
  mahasiswa: "Seorang mahasiswa",
};

/** The role beside the day of an entry of the access list. */
const roleWords: Record<string, string> = { dosen: "dosen", admin: "admin", cli: "perintah admin di server", anonim: "tanpa masuk", mahasiswa: "mahasiswa" };

/**
 * What each route of the audit trail (as recorded: method and pattern) did with the
 * student's data, in the student's words. A route not here is said by its action and the
 * part of the data its path names (below), never as the route itself.
 */
const routePhrases: Record<string, string> = {
  "GET /api/dosen/mahasiswa": "melihat nama Anda di daftar mahasiswa bimbingan",
  "GET /api/dosen/mahasiswa/:nim": "membuka halaman data Anda (profil, skrining, catatan)",
  "GET /api/mahasiswa/hasil/:nim": "melihat hasil skrining Anda",
  "GET /api/mahasiswa/history": "melihat hasil skrining Anda",
  "GET /api/mahasiswa/can_submit/:nim": "melihat kapan Anda dapat mengisi kuesioner lagi",
  "POST /api/mahasiswa/kuesioner": "mengisi kuesioner atas nama Anda",
  "GET /api/mahasiswa/mood/:nim": "melihat mood Anda",
  "POST /api/mahasiswa/mood": "mencatat mood atas nama Anda",
  "PUT /api/mahasiswa/mood/:id": "mengubah mood Anda",
  "DELETE /api/mahasiswa/mood/:id": "menghapus mood Anda",
  "GET /api/mahasiswa/diary/:nim": "membaca jurnal Anda",
  "POST /api/mahasiswa/diary": "menulis jurnal atas nama Anda",
  "PUT /api/mahasiswa/diary/:id": "mengubah jurnal Anda",
  "DELETE /api/mahasiswa/diary/:id": "menghapus jurnal Anda",
  "GET /api/mahasiswa/profil/data/:nim": "melihat profil Anda",
  "PUT /api/mahasiswa/profil": "mengubah profil Anda",
  "GET /api/mahasiswa/profil/foto/:nim": "melihat foto profil Anda",
  "PUT /api/mahasiswa/profil/foto": "mengganti foto profil Anda",
  "DELETE /api/mahasiswa/profil/foto/:nim": "menghapus foto profil Anda",
  "POST /api/dosen/catatan": "menulis catatan konseling untuk Anda",
  "GET /api/dosen/catatan/:nim": "membaca catatan konseling Anda",
  "GET /api/mahasiswa/catatan": "membaca catatan konseling Anda",
  "GET /api/mahasiswa/catatan/detail/:id_catatan": "membaca catatan konseling Anda",
  "GET /api/dosen/tindak-lanjut": "melihat nama Anda di daftar tindak lanjut",
  "GET /api/dosen/tindak-lanjut/:id": "membuka tindak lanjut hasil skrining Anda",
  "POST /api/dosen/tindak-lanjut/:id/status": "memperbarui status tindak lanjut Anda",
  "PUT /api/dosen/tindak-lanjut/:id/pemilik": "menyerahkan tindak lanjut Anda kepada dosen lain",
  "POST /api/auth/login": "mencoba masuk ke akun Anda, tetapi gagal",
};

/** Commands of the administrator, by their first words (`skrining privacy export --nim ...`). */
const commandPhrases: [string, string][] = [
  ["skrining privacy export", "mengekspor data Anda ke sebuah berkas"],
  ["skrining privacy erase", "menghapus data Anda"],
  ["skrining privacy restrict", "membatasi pemrosesan data Anda"],
  ["skrining privacy unrestrict", "mengakhiri pembatasan pemrosesan data Anda"],
  ["skrining accounts", "mengubah akun Anda"],
];

const verbs: Record<string, string> = {
  view: "melihat",
  export: "mengekspor",
  create: "menambah",
  update: "mengubah",
  delete: "menghapus",
  password: "mengganti password",
  activate: "mengaktifkan",
  login: "masuk ke",
  login_failed: "mencoba masuk ke",
  model: "memakai model prediksi untuk",
  accounts_import: "mengimpor",
  privacy: "menjalankan tindakan privasi atas",
};

/** The part of the data a route's path names, the first that fits: for the routes the table above does not know. */
const parts: [RegExp, string][] = [
  [/\/mood/, "mood Anda"],
  [/\/diary/, "jurnal Anda"],
  [/catatan/, "catatan konseling Anda"],
  [/\/profil\/foto/, "foto profil Anda"],
  [/\/profil/, "profil Anda"],
  [/\/(hasil|history|kuesioner|can_submit)/, "hasil skrining Anda"],
  [/tindak-lanjut/, "tindak lanjut Anda"],
  [/\/auth/, "akun Anda"],
  [/\/privasi/, "persetujuan privasi Anda"],
];

/** `melihat hasil skrining Anda`: what an entry of the audit trail did, in plain words. */
function phrase(action: string, target: string): string {
  const known = routePhrases[target] ?? commandPhrases.find(([command]) => target === command || target.startsWith(`${command} `))?.[1];
  if (known) return known;
  const part = parts.find(([pattern]) => pattern.test(target))?.[1] ?? "data Anda";
  return `${verbs[action] ?? verbs.view} ${part}`;
}

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
    intro:
      "Data Anda yang disimpan skrining, dan siapa saja selain Anda yang membukanya. Anda berhak atas salinannya (UU 27/2022). Catatan penanganan tindak lanjut yang ditulis staf tidak ada di halaman ini; untuk melihatnya, hubungi admin fakultas.",
    made: (time: string) => `Disusun ${time}.`,
    download: "Unduh data saya (JSON)",
    downloadHint: "Satu file berisi semua data di halaman ini, termasuk setiap jawaban kuesioner.",
    fileName: (nim: string, date: string) => `data-saya-${nim || "mahasiswa"}-${date}.json`,
    rightsTitle: "Memperbaiki, menghapus atau membatasi data",
    rights:
      "Data profil dapat Anda perbaiki di halaman Profil. Untuk memperbaiki data lain, meminta data dihapus, meminta pemrosesannya dibatasi, menarik persetujuan atau mengajukan keberatan, hubungi admin fakultas: permintaan dijawab paling lambat 3 × 24 jam.",
    restricted: (time: string) =>
      `Pemrosesan data Anda dibatasi sejak ${time}: dosen wali, dosen yang menangani tindak lanjut Anda dan admin hanya melihat bahwa data Anda dibatasi, dan data Anda tidak masuk statistik maupun ekspor. Anda tetap melihat semua data Anda di sini.`,

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
      telepon_dosen_wali: "Telepon dosen wali",
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

    notesTitle: "Catatan konseling",
    notesEmpty: "Belum ada catatan dari dosen.",
    /** `Dari Dr. Rina Kartika, 24 November 2026`; a lecturer without a name by the NIP. */
    noteHeading: (name: string | null, nip: string, date: string) => `Dari ${name ?? `dosen dengan NIP ${nip}`}, ${date}`,
    reply: (date: string) => `Balasan Anda (${date})`,
    noReply: "Belum dibalas.",
    requestsTitle: "Permintaan untuk dihubungi",
    requestsEmpty: "Anda belum pernah meminta dihubungi.",
    requestNoMessage: "Tanpa pesan.",

    consentTitle: "Persetujuan pemberitahuan privasi",
    consentEmpty: "Belum ada persetujuan yang tercatat.",
    consentItem: (version: string, time: string) => `Versi ${version}, disetujui ${time}`,

    accessTitle: "Siapa yang membuka data Anda",
    accessIntro:
      "Setiap kali dosen, admin, atau perintah admin di server membuka, mengekspor atau mengubah data Anda, hal itu tercatat: di sini per orang per hari, di berkas unduhan satu per satu. Alamat jaringan mereka tidak ditampilkan.",
    accessEmpty: "Belum ada orang lain yang membuka data Anda.",
    accessCaption: (count: number) => `${count} akses oleh orang lain, per orang per hari, terbaru dulu`,
    /** `Dr. Rina Kartika (dosen), Kamis, 26 November 2026:` — whose accesses of one day follow; the role alone without a name. */
    whoOnDay: (role: string, name: string | null, day: string) => `${name ? `${name} (${roleWords[role] ?? role})` : (nobodyNamed[role] ?? role)}, ${day}:`,
    /** `melihat hasil skrining Anda, 3 kali` */
    did: (action: string, target: string, times: number) => `${phrase(action, target)}${times > 1 ? `, ${times} kali` : ""}`,
    times: (count: number) => `Waktu tiap akses (${count})`,
    at: (time: string, action: string, target: string, times: number) => `${time}: ${phrase(action, target)}${times > 1 ? ` (${times} kali)` : ""}`,
  },
} as const;
