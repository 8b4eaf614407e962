import type { Level } from "./scoring";

export type { Level };

export const levels: readonly Level[] = Object.freeze(["Rendah", "Sedang", "Tinggi"] as const);

interface Suggestion {
  saran: string;
  detailed_suggestions: readonly string[];
}

/** Indexed by stress level, then motivation level. */
const table: Readonly<Record<Level, Readonly<Record<Level, Suggestion>>>> = {
  Rendah: {
    Rendah: {
      saran: "Beban Anda tampak ringan, jadi ini saat yang baik untuk menemukan kembali alasan pribadi Anda berkuliah.",
      detailed_suggestions: [
        "Tuliskan satu atau dua hal dari bidang studi Anda yang dulu membuat Anda tertarik.",
        "Pilih satu mata kuliah minggu ini dan tetapkan target kecil, misalnya membaca satu bab.",
        "Cari tahu pekerjaan atau peran yang bisa Anda jalani dengan ilmu dari jurusan Anda.",
        "Ajak teman sekelas belajar bersama agar kuliah terasa lebih hidup.",
        "Jika keraguan tentang jurusan terus muncul, bicarakan dengan dosen wali Anda.",
      ],
    },
    Sedang: {
      saran: "Kondisi Anda cukup tenang; beri sedikit dorongan agar semangat belajar Anda makin mantap.",
      detailed_suggestions: [
        "Hubungkan setiap mata kuliah dengan satu tujuan pribadi yang Anda pedulikan.",
        "Coba satu kegiatan baru yang dekat dengan minat Anda, seperti kelompok studi atau seminar.",
        "Catat kemajuan kecil setiap minggu agar perkembangan Anda terlihat.",
        "Susun jadwal belajar rutin yang ringan dan mudah dijalankan.",
        "Pertahankan kebiasaan istirahat dan olahraga yang sudah berjalan baik.",
      ],
    },
    Tinggi: {
      saran: "Anda tampak tenang dan bersemangat; pertahankan ritme ini dan manfaatkan untuk berkembang lebih jauh.",
      detailed_suggestions: [
        "Pertahankan pola tidur, makan, dan olahraga yang sudah mendukung Anda.",
        "Ambil tantangan yang sesuai minat, misalnya proyek, lomba, atau membantu penelitian dosen.",
        "Bagikan cara belajar Anda kepada teman yang sedang kesulitan.",
        "Sisakan waktu luang agar semangat tetap terjaga dan tidak berubah menjadi kelelahan.",
        "Tinjau rencana studi dan karier Anda sesekali agar arahnya tetap jelas.",
      ],
    },
  },
  Sedang: {
    Rendah: {
      saran: "Tekanan mulai terasa sementara semangat sedang menurun, jadi mulailah dari langkah kecil yang mudah dicapai.",
      detailed_suggestions: [
        "Pecah tugas besar menjadi bagian kecil dan selesaikan satu bagian setiap hari.",
        "Usahakan tidur dan bangun pada jam yang kurang lebih sama setiap hari.",
        "Ingat kembali alasan Anda memilih jurusan ini, lalu tuliskan dalam satu kalimat.",
        "Belajar bersama teman agar tugas terasa lebih ringan.",
        "Jika semangat tak kunjung kembali, ceritakan kepada dosen wali atau layanan konseling kampus.",
      ],
    },
    Sedang: {
      saran: "Keadaan Anda cukup seimbang; atur waktu dan istirahat agar tekanan tidak bertambah dan semangat tetap terjaga.",
      detailed_suggestions: [
        "Catat tenggat dua minggu ke depan dan kerjakan yang paling dekat lebih dulu.",
        "Sisipkan istirahat singkat di antara sesi belajar, misalnya 5-10 menit setiap jam.",
        "Jalan kaki atau bergerak ringan 20-30 menit beberapa kali seminggu.",
        "Tentukan satu hal dari kuliah yang ingin Anda kuasai semester ini.",
        "Bicarakan kesulitan Anda dengan teman atau keluarga yang Anda percaya.",
      ],
    },
    Tinggi: {
      saran: "Semangat Anda kuat tetapi tekanan mulai terasa, jadi jaga energi Anda agar semangat ini bertahan lama.",
      detailed_suggestions: [
        "Tentukan prioritas dan jangan ragu menolak kegiatan tambahan yang tidak mendesak.",
        "Jadwalkan waktu istirahat seperti Anda menjadwalkan tugas.",
        "Jaga jam tidur, terutama menjelang tenggat dan ujian.",
        "Pusatkan semangat Anda pada satu atau dua target utama, bukan semuanya sekaligus.",
        "Kenali tanda kelelahan seperti sulit tidur atau mudah kesal, lalu beri diri waktu untuk pulih.",
      ],
    },
  },
  Tinggi: {
    Rendah: {
      saran: "Tekanan Anda sedang berat dan semangat menurun, dan Anda tidak perlu menghadapinya sendirian.",
      detailed_suggestions: [
        "Hubungi layanan konseling kampus untuk bercerita tentang apa yang sedang Anda alami.",
        "Temui dosen wali untuk membicarakan beban studi dan kemungkinan menyesuaikan rencana kuliah.",
        "Untuk sementara, fokus pada satu tugas terpenting setiap hari.",
        "Jaga kebutuhan dasar: tidur cukup, makan teratur, dan minum air.",
        "Ceritakan perasaan Anda minggu ini kepada satu orang yang Anda percaya.",
      ],
    },
    Sedang: {
      saran: "Tekanan Anda sedang tinggi, jadi kurangi beban sebisanya dan bicarakan dengan orang yang dapat membantu.",
      detailed_suggestions: [
        "Ceritakan apa yang Anda rasakan kepada layanan konseling kampus.",
        "Diskusikan dengan dosen wali mata kuliah atau tugas yang paling berat bagi Anda.",
        "Tulis semua tenggat di satu tempat, lalu tandai yang bisa ditunda atau dibicarakan dengan dosen.",
        "Luangkan waktu setiap hari untuk hal yang menenangkan, seperti berjalan santai atau mendengarkan musik.",
        "Kurangi begadang, karena tidur yang cukup membantu Anda berpikir lebih jernih.",
      ],
    },
    Tinggi: {
      saran: "Semangat Anda tinggi tetapi tekanan yang Anda rasakan juga berat, jadi jaga diri agar semangat ini tidak berujung kelelahan.",
      detailed_suggestions: [
        "Bicarakan beban yang Anda rasakan dengan layanan konseling kampus, meskipun Anda merasa masih sanggup.",
        "Minta pendapat dosen wali tentang jumlah SKS dan kegiatan yang Anda ambil.",
        "Kurangi komitmen tambahan sampai tekanan mereda.",
        "Tetapkan jam berhenti belajar setiap malam agar tubuh sempat pulih.",
        "Rayakan kemajuan kecil, bukan hanya hasil akhir.",
      ],
    },
  },
};

const fallback: Suggestion = {
  saran: "Hasil Anda belum dapat dipetakan secara rinci, tetapi kebiasaan sederhana berikut tetap membantu menjaga keseimbangan kuliah.",
  detailed_suggestions: [
    "Jaga jam tidur yang teratur dan cukup.",
    "Susun daftar tugas mingguan dan kerjakan sedikit demi sedikit.",
    "Luangkan waktu untuk bergerak, misalnya berjalan kaki atau olahraga ringan.",
    "Ceritakan kesulitan Anda kepada teman, keluarga, atau dosen wali.",
    "Jika beban terasa berat, layanan konseling kampus siap mendengarkan.",
  ],
};

function isLevel(value: string): value is Level {
  return (levels as readonly string[]).includes(value);
}

/** Levels come from models and stored rows, so anything outside the nine pairs gets the fallback. */
export function suggestionsFor(stress: string, motivation: string): { saran: string; detailed_suggestions: string[] } {
  const entry = isLevel(stress) && isLevel(motivation) ? table[stress][motivation] : fallback;
  // A copy, so a caller that edits its result cannot change what the next caller gets.
  return { saran: entry.saran, detailed_suggestions: [...entry.detailed_suggestions] };
}
