// Texts of the student's pages.
import { sentence } from "./common";

const moodWords = ["Sangat buruk", "Buruk", "Biasa saja", "Baik", "Sangat baik"] as const;

/** The words of a mood value (1–5), with the number so that it reads without the word's tone. */
const moodLabel = (value: number) => `${value} · ${moodWords[value - 1] ?? ""}`;

/**
 * Who besides the student reads a kind of their data (decisions §9, §13): the advisor, the
 * lecturer handling an open follow-up case of theirs, and the faculty's admins; each read is
 * on Data saya. Said the same way on every page that holds such data.
 */
const readers = (what: string) =>
  `${what} dapat dibaca oleh dosen wali Anda, oleh dosen yang menangani tindak lanjut Anda selama tindak lanjut itu masih terbuka, dan oleh admin fakultas. Setiap kali mereka membukanya, hal itu tercatat di halaman Data saya.`;

/** The advisor by name when the page knows it (decisions §19: say exactly who reads what). */
const advisorWords = (name: string | null) => (name ? `dosen wali Anda, ${name}` : "dosen wali Anda");

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
    dataSaya: "Data saya",
  },
  moodWords,
  moodLabel,
  charCount: (count: number, max: number) => `${count.toLocaleString("id-ID")} dari ${max.toLocaleString("id-ID")} karakter`,
  tooLong: (max: number) => `Paling banyak ${max.toLocaleString("id-ID")} karakter.`,
  confirmYes: "Ya, hapus",
  notScreened: "Anda belum pernah mengisi kuesioner.",
  toQuestionnaire: "Isi kuesioner",
  lastSubmitted: (date: string) => `Terakhir diisi ${date}.`,
  /** Beside "Catatan dosen" in the menu; read out with it. */
  unreadNotes: (count: number) => ` (${count} belum dibaca)`,

  beranda: {
    greeting: (name: string) => sentence(`Halo, ${name}`),
    intro: "Isi kuesioner mingguan, lihat hasilnya, dan catat mood Anda setiap hari.",
    questionnaireTitle: "Kuesioner minggu ini",
    canSubmit: "Anda dapat mengisi kuesioner sekarang.",
    waitDays: (days: number) => (days <= 1 ? "Kuesioner dapat diisi lagi besok." : `Kuesioner dapat diisi lagi dalam ${days} hari.`),
    latestTitle: "Hasil terakhir",
    latestDate: (date: string) => `Skrining ${date}`,
    stress: "Stres",
    motivation: "Motivasi",
    toResult: "Lihat hasil lengkap",
    moodTitle: "Mood hari ini",
    moodQuestion: "Bagaimana perasaan Anda hari ini?",
    moodNone: "Mood hari ini belum diisi. Pilih salah satu.",
    moodToday: (word: string) => `Mood hari ini: ${word}. Pilih lagi untuk mengubahnya.`,
    moodSaved: (word: string) => `Mood hari ini tersimpan: ${word}.`,
    toMood: "Lihat semua mood",
    notesTitle: "Catatan dari dosen",
    notesUnread: (count: number) => (count === 1 ? "Ada 1 catatan baru dari dosen yang belum Anda baca." : `Ada ${count} catatan baru dari dosen yang belum Anda baca.`),
    toNotes: "Baca catatan dosen",
  },

  kuesioner: {
    intro:
      "Kuesioner ini berisi pernyataan tentang stres dan motivasi belajar Anda dalam beberapa minggu terakhir. Tidak ada jawaban benar atau salah: pilih yang paling sesuai dengan keadaan Anda.",
    beforeStart: "Sebelum mulai",
    weeklyRule: "Kuesioner dapat diisi sekali dalam 7 hari.",
    size: (items: number, steps: number) => `${items} pertanyaan dalam ${steps} langkah, sekitar 10–15 menit.`,
    draftNote: "Jawaban Anda disimpan sementara di perangkat ini sampai dikirim, jadi tidak hilang bila halaman dimuat ulang atau koneksi terputus.",
    start: "Mulai mengisi",
    resume: (answered: number, total: number) => `Lanjutkan isian (${answered} dari ${total} terjawab)`,
    restart: "Mulai dari awal",
    restartQuestion: "Hapus semua jawaban yang sudah diisi dan mulai dari awal?",
    restartYes: "Ya, mulai dari awal",
    toResult: "Lihat hasil terakhir",
    step: (step: number, steps: number) => `Langkah ${step} dari ${steps}`,
    answered: (answered: number, total: number) => `${answered} dari ${total} pertanyaan terjawab`,
    groupTitle: { stress: "Stres akademik", motivasi: "Motivasi belajar" } as Record<string, string>,
    groupInstruction: {
      stress: "Seberapa sering Anda mengalami hal berikut dalam beberapa minggu terakhir?",
      motivasi: "Seberapa sesuai setiap pernyataan berikut dengan alasan Anda berkuliah?",
    } as Record<string, string>,
    scale: {
      stress: ["Tidak pernah", "Hampir tidak pernah", "Kadang-kadang", "Cukup sering", "Sangat sering"],
      motivasi: ["Sama sekali tidak sesuai", "Tidak sesuai", "Agak tidak sesuai", "Netral", "Agak sesuai", "Sesuai", "Sangat sesuai"],
    } as Record<string, readonly string[]>,
    habitsTitle: "Kebiasaan (boleh dilewati)",
    habitsHint: "Jawaban ini juga memperbarui profil Anda.",
    notAnswered: "Tidak diisi",
    missingTitle: (count: number) => `Masih ada ${count} pertanyaan yang belum dijawab:`,
    missingItem: (number: number) => `Pertanyaan ${number}`,
    missingHere: "Pertanyaan ini belum dijawab.",
    autosaved: "Jawaban tersimpan otomatis di perangkat ini.",
    submit: "Kirim jawaban",
    submitting: "Mengirim…",
    weeklyLimit: "Batasan mingguan",
    /** Decisions §20: the optional safety question, after the 68 items. */
    safetyTitle: "Pertanyaan terakhir",
    safetyIntro: (contact: string) =>
      `Pertanyaan ini membantu fakultas tahu siapa yang perlu ditemani segera. Jawaban Anda dibaca dosen wali Anda. Bila Anda menjawab "Kadang-kadang" atau lebih sering, Anda langsung melihat ke mana meminta bantuan (${contact}), dan fakultas menghubungi Anda hari ini.`,
    safetyAnswered: "Pertanyaan terakhir terjawab",
  },

  habits: {
    freqOlahraga: "Seberapa sering Anda berolahraga?",
    durasiTidur: "Berapa lama Anda biasanya tidur dalam semalam?",
    freqOlahragaOptions: ["Tidak pernah", "1-3 kali", "4-6 kali", ">7 kali"],
    durasiTidurOptions: ["< 4 Jam", "4-5 Jam", "6-7 Jam", "> 7 Jam"],
  },

  bantuan: {
    urgent: "Hasil Anda menunjukkan stres yang tinggi. Anda tidak harus menghadapinya sendiri: bicarakan sekarang dengan seseorang.",
    call: (label: string, nomor: string) => `Telepon ${label}: ${nomor}`,
    more: "Baca selengkapnya di halaman Hasil",
    alerted: {
      dosen_wali: "Hasil ini sudah diteruskan kepada dosen wali Anda, yang diminta menindaklanjutinya.",
      dosen_lain: "Hasil ini sudah diteruskan kepada dosen yang ditunjuk fakultas untuk menindaklanjutinya.",
      admin: "Anda belum memiliki dosen wali, jadi hasil ini diteruskan kepada admin fakultas untuk ditindaklanjuti.",
    } as Record<string, string>,
    alreadyFollowed: {
      dosen_wali: "Dosen wali Anda sedang menindaklanjuti hasil skrining Anda sebelumnya dan dapat melihat hasil ini.",
      dosen_lain: "Dosen yang ditunjuk fakultas sedang menindaklanjuti hasil skrining Anda sebelumnya dan dapat melihat hasil ini.",
      admin: "Admin fakultas sedang menindaklanjuti hasil skrining Anda sebelumnya.",
    } as Record<string, string>,
    notAlerted:
      "Hasil ini tidak diteruskan secara khusus kepada siapa pun; dosen wali Anda dapat melihatnya, tetapi tidak diberi tahu. Bila Anda ingin dibantu, jangan menunggu: hubungi layanan bantuan di atas atau dosen wali Anda.",
    /** Decisions §20: the safety question answered 3 or more. */
    safetyTitle: "Anda tidak sendirian: bicarakan hari ini",
    safetyText:
      "Terima kasih sudah menjawab dengan jujur. Pikiran untuk menyakiti diri sendiri perlu dibicarakan dengan seseorang sekarang juga, bukan nanti. Orang ini siap menjawab hari ini:",
    safetyCall: (nama: string, telepon: string) => `Telepon ${nama}: ${telepon}`,
    safetyEmergency: "Bila Anda merasa tidak aman saat ini, segera hubungi layanan di bawah atau minta orang di dekat Anda menemani.",
  },

  hasil: {
    submitted: "Jawaban Anda sudah terkirim. Berikut hasil skrining Anda.",
    date: (date: string) => `Hasil skrining ${date}.`,
    notDiagnosis: "Ini hasil skrining, bukan diagnosis. Hasil ini membantu Anda dan dosen wali memperhatikan keadaan Anda; hanya tenaga profesional yang dapat menegakkan diagnosis.",
    stressTitle: "Tingkat stres",
    stressScore: (score: string, min: string, max: string) => `Skor stres: ${score} (rentang ${min} sampai ${max}; makin tinggi, makin berat stres yang dirasakan).`,
    motivationTitle: "Motivasi belajar",
    motivationScore: (score: string, min: string, max: string) => `Indeks motivasi (SDI): ${score} (rentang ${min} sampai ${max}; makin tinggi, makin kuat motivasi dari dalam diri).`,
    suggestionsTitle: "Saran untuk Anda",
    emptyTitle: "Belum ada hasil",
    toHistory: "Lihat riwayat skrining",
  },

  riwayat: {
    intro: "Semua hasil skrining Anda, dari yang paling lama (kiri) sampai yang terbaru (kanan).",
    stressTitle: "Skor stres",
    stressChart: "Grafik skor stres dari waktu ke waktu; angkanya ada di tabel riwayat.",
    motivationTitle: "Indeks motivasi (SDI)",
    motivationExplained: (min: string, max: string) =>
      `SDI (Self-Determination Index) merangkum jawaban motivasi Anda dalam satu angka dari ${min} sampai ${max}: makin tinggi, makin besar dorongan belajar dari dalam diri (minat, nilai pribadi); makin rendah, makin besar dorongan dari luar (tuntutan, nilai, rasa bersalah) atau hilangnya dorongan.`,
    motivationChart: "Grafik indeks motivasi dari waktu ke waktu; angkanya ada di tabel riwayat.",
    tableTitle: "Tabel riwayat",
    caption: (count: number) => `${count} skrining, yang terbaru di atas`,
    columns: ["Tanggal", "Stres", "Motivasi"],
    stressCell: (score: string) => `skor ${score}`,
    motivationCell: (score: string) => `SDI ${score}`,
  },

  mood: {
    intro: "Catat mood Anda setiap hari. Satu tanggal berisi satu mood; mengisi lagi tanggal yang sama menggantinya.",
    /** Decisions §19: exactly who reads what. */
    readers: (advisor: string | null) =>
      `Siapa yang membaca: ${advisorWords(advisor)} melihat mood 30 hari terakhir Anda sebagai grafik di halaman mahasiswanya; dosen yang menangani tindak lanjut Anda melihatnya selama tindak lanjut itu masih terbuka; admin fakultas juga dapat membukanya. Setiap kali mereka membukanya, hal itu tercatat di halaman Data saya.`,
    addTitle: "Catat mood",
    date: "Tanggal",
    value: "Mood",
    chooseValue: "Pilih salah satu mood.",
    save: "Simpan mood",
    created: (word: string, date: string) => `Mood ${word} untuk ${date} tersimpan.`,
    replaced: (word: string, date: string) => `Mood ${date} diganti menjadi ${word}.`,
    listTitle: "Mood beberapa minggu terakhir",
    empty: "Belum ada mood yang dicatat.",
    showAll: (count: number) => `Tampilkan semua (${count})`,
    editTitle: (date: string) => `Ubah mood ${date}`,
    editLabel: (date: string) => `Ubah mood ${date}`,
    deleteLabel: (date: string) => `Hapus mood ${date}`,
    deleteQuestion: (date: string) => `Hapus mood ${date}?`,
    updated: (date: string) => `Mood ${date} diperbarui.`,
    deleted: (date: string) => `Mood ${date} dihapus.`,
  },

  jurnal: {
    intro: "Tulislah apa saja yang ingin Anda catat.",
    /** Decisions §19: an entry is the student's own unless she shares it. */
    readers: (advisor: string | null) =>
      `Siapa yang membaca: jurnal Anda hanya untuk Anda. Entri yang Anda tandai “Bagikan ke dosen wali” dapat dibaca oleh ${advisorWords(advisor)}, oleh dosen yang menangani tindak lanjut Anda selama tindak lanjut itu masih terbuka, dan oleh admin fakultas; setiap kali mereka membukanya, hal itu tercatat di halaman Data saya. Entri lainnya tidak ditampilkan kepada dosen maupun admin; entri itu hanya ikut dalam salinan lengkap data Anda (Data saya, atau salinan yang dibuat admin atas permintaan Anda, yang juga tercatat).`,
    share: "Bagikan ke dosen wali",
    shareHint: "Bila dicentang, dosen wali Anda (dan penangan tindak lanjut Anda yang terbuka) dapat membaca entri ini. Tanpa centang, hanya Anda yang membacanya.",
    shared: "Dibagikan ke dosen wali",
    private: "Hanya untuk Anda",
    writeTitle: "Tulis jurnal",
    editTitle: (title: string) => `Ubah jurnal: ${title}`,
    date: "Tanggal",
    entryTitle: "Judul (boleh kosong)",
    content: "Isi",
    save: "Simpan jurnal",
    saveChanges: "Simpan perubahan",
    draftNote: "Tulisan Anda disimpan sementara di perangkat ini sampai tersimpan di server.",
    contentRequired: "Isi jurnal tidak boleh kosong.",
    created: "Jurnal tersimpan.",
    updated: "Perubahan jurnal tersimpan.",
    listTitle: "Jurnal Anda",
    empty: "Belum ada jurnal.",
    untitled: "Tanpa judul",
    more: "Tampilkan semua isi",
    less: "Tampilkan ringkas",
    editLabel: (title: string) => `Ubah jurnal ${title}`,
    deleteLabel: (title: string) => `Hapus jurnal ${title}`,
    deleteQuestion: (title: string) => `Hapus jurnal “${title}”? Tulisan ini tidak dapat dikembalikan.`,
    deleted: (title: string) => `Jurnal “${title}” dihapus.`,
  },

  catatan: {
    intro: `Catatan konseling dari dosen untuk Anda. Anda dapat membalas setiap catatan sekali, lalu mengubah balasan itu. ${readers("Catatan dan balasan Anda")} Dosen yang menulis sebuah catatan tetap dapat membaca catatan itu dan balasan Anda, juga setelah ia bukan lagi dosen wali atau penangan tindak lanjut Anda.`,
    empty: "Belum ada catatan dari dosen.",
    from: (name: string, date: string) => `Dari ${name}, ${date}`,
    /** A note of a lecturer without a name is signed with the NIP. */
    lecturerNip: (nip: string) => `dosen dengan NIP ${nip}`,
    replied: "Sudah dibalas",
    notReplied: "Belum dibalas",
    yourReply: "Balasan Anda",
    repliedOn: (date: string) => `Dibalas ${date}`,
    send: "Kirim balasan",
    editReply: "Ubah balasan",
    saveReply: "Simpan balasan",
    replyRequired: "Balasan tidak boleh kosong.",
    unread: "Baru",
  },

  /** Decisions §19: the advisor by name and number, and a request to be contacted. */
  kontak: {
    advisorTitle: "Dosen wali Anda",
    noAdvisor: "Anda belum memiliki dosen wali. Permintaan untuk dihubungi diteruskan kepada admin fakultas.",
    call: (nomor: string) => `Telepon/WhatsApp ${nomor}`,
    noPhone: "Dosen wali Anda belum mencantumkan nomor telepon.",
    title: "Minta dihubungi",
    intro: "Ingin berbicara dengan seseorang tentang keadaan Anda? Kirim permintaan, dan Anda akan dihubungi. Pesan Anda hanya dibaca dosen dan admin yang menindaklanjutinya.",
    message: "Pesan (boleh kosong)",
    messageHint: (count: string) => `Misalnya kapan dan bagaimana Anda bisa dihubungi. ${count}`,
    send: "Minta dihubungi",
    sending: "Mengirim…",
    sentAt: (date: string, recipient: string) => `Permintaan Anda pada ${date} ${recipient}.`,
    recipient: {
      dosen_wali: "diteruskan kepada dosen wali Anda",
      dosen_lain: "diteruskan kepada dosen yang ditunjuk fakultas untuk menindaklanjuti Anda",
      admin: "diteruskan kepada admin fakultas",
    } as Record<string, string>,
    status: {
      menunggu: "Permintaan Anda sudah diterima dan menunggu ditanggapi.",
      ditanggapi: "Permintaan Anda sudah ditanggapi; dosen sedang menindaklanjutinya.",
      selesai: "Tindak lanjut permintaan Anda sudah selesai. Anda dapat meminta lagi bila perlu.",
    } as Record<string, string>,
    againAt: (date: string) => `Anda dapat mengirim permintaan baru mulai ${date}. Bila mendesak, hubungi dosen wali Anda atau nomor bantuan langsung.`,
    changed: (from: string | null, to: string | null, date: string) =>
      to
        ? sentence(`Dosen wali Anda berganti${from ? ` dari ${from}` : ""} menjadi ${to} sejak ${date}`)
        : sentence(`Anda tidak lagi memiliki dosen wali${from ? ` (sebelumnya ${from})` : ""} sejak ${date}`),
  },

  profil: {
    dataTitle: "Data diri",
    nim: "NIM",
    nama: "Nama",
    program: "Program studi",
    kelas: "Kelas",
    lecturer: "Dosen wali",
    lecturerPhone: "Telepon dosen wali",
    notSet: "Belum diisi",
    editTitle: "Ubah profil",
    editIntro: "Kolom yang dikosongkan tidak mengubah data yang sudah tersimpan.",
    angkatan: "Angkatan (tahun masuk)",
    angkatanHint: "Empat angka, misalnya 2023.",
    gender: "Jenis kelamin",
    genderOptions: ["Laki-laki", "Perempuan"],
    usia: "Usia (tahun)",
    ipk: "IPK",
    ipkHint: "Antara 0,00 dan 4,00, misalnya 3,45.",
    choose: "Pilih…",
    save: "Simpan profil",
    photoTitle: "Foto profil",
    photoAlt: "Foto profil Anda",
    noPhoto: "Belum ada foto profil.",
    photoInput: "Pilih foto",
    noFile: "Belum ada file yang dipilih.",
    photoHint:
      "JPG, PNG, GIF, atau WebP, paling besar 2 MB. Data lokasi dan kamera di dalam foto dihapus saat diunggah. Foto profil dapat dibuka tanpa masuk oleh siapa pun di jaringan kampus yang mengetahui NIM Anda (aplikasi ponsel memuatnya begitu); setiap pembukaan tercatat di halaman Data saya.",
    previewAlt: "Pratinjau foto yang dipilih",
    previewTitle: "Pratinjau",
    upload: "Unggah foto",
    deletePhoto: "Hapus foto",
    deletePhotoQuestion: "Hapus foto profil Anda?",
    passwordTitle: "Ganti password",
    passwordIntro: "Setelah password diganti, semua sesi Anda berakhir dan Anda perlu masuk lagi dengan password baru.",
    oldPassword: "Password lama",
    newPassword: "Password baru",
    newPasswordHint: "8 sampai 72 karakter.",
    repeatPassword: "Ulangi password baru",
    passwordMismatch: "Password baru dan ulangannya tidak sama.",
    passwordRequired: "Isi password lama dan password baru.",
    changePassword: "Ganti password",
    passwordChanged: "Password berhasil diganti. Silakan masuk lagi dengan password baru.",
  },
} as const;
