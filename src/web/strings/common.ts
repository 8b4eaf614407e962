// Texts of the whole interface, in Indonesian: the shell, signing in, errors, shared parts.

/** Ends a sentence with one full stop: a name may end with one already (`Budi Santoso M.Kom.`). */
export const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

export const common = {
  appName: "skrining",
  appTitle: "Skrining Stres dan Motivasi",
  skipToContent: "Langsung ke isi halaman",
  mainNavigation: "Navigasi utama",
  menu: "Menu",
  closeMenu: "Tutup menu",
  signOut: "Keluar",
  signingOut: "Sedang keluar…",
  loading: "Memuat…",
  saving: "Menyimpan…",
  save: "Simpan",
  cancel: "Batal",
  edit: "Ubah",
  delete: "Hapus",
  confirmDelete: "Yakin ingin menghapus?",
  yes: "Ya",
  no: "Tidak",
  close: "Tutup",
  back: "Kembali",
  next: "Berikutnya",
  previous: "Sebelumnya",
  retry: "Coba lagi",
  notFoundTitle: "Halaman tidak ditemukan",
  notFoundText: "Alamat ini tidak ada di skrining.",
  /** The home page of each kind of account, for a link from a page that is not theirs. */
  toHome: { mahasiswa: "Ke Beranda", staff: "Ke halaman utama Anda" } as Record<"mahasiswa" | "staff", string>,
  signedInAs: (name: string, role: string) => `Masuk sebagai ${name} (${role})`,
  roles: { mahasiswa: "mahasiswa", dosen: "dosen", admin: "admin" } as Record<string, string>,
  page: (page: number, pages: number) => `Halaman ${page} dari ${pages}`,
  levels: { Rendah: "Rendah", Sedang: "Sedang", Tinggi: "Tinggi" } as Record<string, string>,
  /** What a level's colour means, the same on every page and chart (src/web/levels.ts). */
  toneWords: { "tone-good": "tidak mengkhawatirkan", "tone-watch": "perlu dipantau", "tone-concern": "perlu perhatian" },
  /** Under a chart with level bands: the bands are the score rules; a model may decide otherwise. */
  bandsNote:
    "Warna latar menunjukkan batas tingkat menurut skor. Tingkat di tabel adalah hasil yang tercatat untuk skrining itu; hasil itu dihitung dari seluruh jawaban, sehingga sesekali berbeda dari warna latar.",
  table: "Tabel",
  scrollHint: "Tabel ini lebih lebar dari layar: geser ke samping untuk melihat semua kolom.",
  chart: "Grafik",
  noData: "Belum ada data.",
  offlineBanner: "Anda sedang offline: skrining tidak dapat dihubungi. Isian yang belum terkirim tetap tersimpan di perangkat ini.",
  offlineTitle: "Sedang offline",
  offlineText: "skrining belum dapat dihubungi, jadi sesi Anda belum dapat diperiksa. Halaman ini memeriksa sendiri setiap beberapa detik dan dimuat lagi begitu skrining menjawab; Anda juga dapat menekan Coba lagi.",
  offlineQuestionnaire: (answers: number) => `Jawaban kuesioner Anda yang belum terkirim (${answers} pertanyaan) tetap tersimpan di perangkat ini.`,
  offlineDiary: "Tulisan jurnal Anda yang belum tersimpan tetap ada di perangkat ini.",
} as const;

export const errors = {
  offline: "Tidak dapat menghubungi server. Periksa koneksi jaringan kampus Anda; isian Anda tidak hilang.",
  unexpected: "Terjadi kesalahan yang tidak terduga. Coba lagi sebentar lagi.",
  sessionEnded: "Sesi Anda berakhir. Silakan masuk lagi.",
  retryIn: (seconds: number) => (seconds >= 120 ? `Coba lagi dalam ${Math.ceil(seconds / 60)} menit.` : `Coba lagi dalam ${seconds} detik.`),
  /** A page of the other kind of account: whose it is, and where this account's pages start. */
  wrongRoleTitle: { mahasiswa: "Halaman ini untuk mahasiswa", staff: "Halaman ini untuk dosen dan admin", admin: "Halaman ini untuk admin fakultas" } as Record<
    "mahasiswa" | "staff" | "admin",
    string
  >,
  wrongRole: {
    mahasiswa: "Anda masuk dengan akun dosen atau admin, sedangkan halaman ini hanya untuk mahasiswa. Halaman Anda dimulai dari halaman utama akun Anda.",
    staff: "Anda masuk dengan akun mahasiswa, sedangkan halaman ini hanya untuk dosen wali dan admin fakultas. Halaman Anda dimulai dari Beranda.",
    admin: "Konsol admin hanya untuk akun admin fakultas. Halaman Anda dimulai dari halaman utama akun Anda.",
  } as Record<"mahasiswa" | "staff" | "admin", string>,
  /**
   * The server's words where the interface fixes a text that says "login" (the interface's
   * error table), as the pages say it: they say "masuk".
   */
  serverWords: { "Akun sudah diaktivasi sebelumnya. Silakan login.": "Akun ini sudah diaktivasi sebelumnya. Silakan masuk." } as Record<string, string>,
} as const;

export const signIn = {
  title: "Masuk",
  intro: "Masuk dengan username (NIM untuk mahasiswa) dan password dari fakultas.",
  username: "Username",
  password: "Password",
  submit: "Masuk",
  submitting: "Sedang masuk…",
  notActivatedHint: "Akun baru harus diaktivasi sekali sebelum dipakai.",
  toActivation: "Aktivasi akun",
  remember: "Ingat saya di perangkat ini",
  rememberHint: "Tanpa centang, Anda keluar begitu tab ditutup. Jangan centang di komputer bersama, seperti komputer lab kampus.",
  activateNow: "Aktivasi akun sekarang",
  showPassword: "Tampilkan password",
} as const;

export const activation = {
  title: "Aktivasi akun",
  intro:
    "Baca dulu pemberitahuan privasi di bawah: data apa yang disimpan skrining, untuk apa, dan apa hak Anda. Lalu aktivasi akun Anda sekali, dengan username dan password awal dari fakultas, dan buat password baru yang hanya Anda ketahui.",
  submit: "Aktivasi",
  submitting: "Sedang mengaktivasi…",
  done: (name: string) => `Akun ${name} sudah aktif. Silakan masuk dengan password baru Anda.`,
  initialPassword: "Password awal dari fakultas",
  initialPasswordHint: "Password yang Anda terima dari fakultas; setelah aktivasi password ini tidak berlaku lagi.",
  newPassword: "Password baru",
  newPasswordHint: "Hanya Anda yang tahu. 8 sampai 72 karakter, berbeda dari password awal.",
  repeatPassword: "Ulangi password baru",
  sameAsInitial: "Password baru harus berbeda dari password awal.",
  mismatch: "Password baru dan ulangannya tidak sama.",
  toSignIn: "Ke halaman masuk",
} as const;
