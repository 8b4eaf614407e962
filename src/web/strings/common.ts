// Texts of the whole interface, in Indonesian: the shell, signing in, errors, shared parts.

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
  toHome: "Ke halaman utama",
  signedInAs: (name: string, role: string) => `Masuk sebagai ${name} (${role})`,
  roles: { mahasiswa: "mahasiswa", dosen: "dosen", admin: "admin" } as Record<string, string>,
  page: (page: number, pages: number) => `Halaman ${page} dari ${pages}`,
  levels: { Rendah: "Rendah", Sedang: "Sedang", Tinggi: "Tinggi" } as Record<string, string>,
  /** Under a chart with level bands: the bands are the score rules; a model may decide otherwise. */
  bandsNote: "Warna latar: batas tingkat menurut aturan skor. Tingkat yang tercatat (dapat ditentukan model prediksi) ada di tabel.",
  table: "Tabel",
  chart: "Grafik",
  noData: "Belum ada data.",
} as const;

export const errors = {
  offline: "Tidak dapat menghubungi server. Periksa koneksi jaringan kampus Anda; isian Anda tidak hilang.",
  unexpected: "Terjadi kesalahan yang tidak terduga. Coba lagi sebentar lagi.",
  sessionEnded: "Sesi Anda berakhir. Silakan masuk lagi.",
  retryIn: (seconds: number) => (seconds >= 120 ? `Coba lagi dalam ${Math.ceil(seconds / 60)} menit.` : `Coba lagi dalam ${seconds} detik.`),
  wrongRole: "Halaman ini bukan untuk peran akun Anda.",
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
  passwordRule: "Password harus minimal 8 karakter, maksimal 72 byte, dan tidak boleh hanya berisi spasi.",
  sameAsInitial: "Password baru harus berbeda dari password awal.",
  mismatch: "Password baru dan ulangannya tidak sama.",
  toSignIn: "Ke halaman masuk",
} as const;
