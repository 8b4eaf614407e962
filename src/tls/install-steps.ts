// How a person makes a phone or a PC trust the faculty's local CA, platform by platform
// (decisions §18): the certificate page of the plain port and the admin console's
// Sertifikat page show the same steps from here. Text between backticks is shown as code
// (a menu's words, a file's name, a command), between double asterisks as strong; `{plain}`
// stands for the plain port's address (`http://192.168.1.10:5000`).

export interface InstallSteps {
  /** The platform as people name it, also the section's id. */
  platform: string;
  id: string;
  steps: string[];
  /** Said after the steps: what else is true on this platform. */
  note?: string;
}

/** The file name a download of /ca.crt is saved under. */
export const authorityFileName = "skrining-ca.crt";

export const installSteps: InstallSteps[] = [
  {
    platform: "Android",
    id: "android",
    steps: [
      "Ketuk **Unduh sertifikat** di halaman ini. Chrome menyimpan `skrining-ca.crt` di folder Download; bila Android berkata sertifikat tidak dapat dipasang dari peramban, itu wajar: lanjutkan ke langkah berikut.",
      "Buka `Setelan`, lalu `Keamanan` (atau `Keamanan & privasi` › `Setelan keamanan lainnya`) › `Enkripsi & kredensial` › `Instal sertifikat` › `Sertifikat CA`. Letaknya berbeda per merek: cari \"sertifikat CA\" di kotak cari Setelan.",
      "Android memperingatkan bahwa data Anda tidak akan bersifat pribadi: ketuk `Tetap instal`, masukkan PIN atau pola kunci layar, lalu pilih `skrining-ca.crt` dari folder Download.",
      "Periksa: `Kredensial tepercaya` › tab `Pengguna` memuat \"skrining CA lokal …\"; ketuk untuk melihat sidik jari SHA-256-nya dan samakan dengan sidik jari di halaman ini.",
      "Buka alamat HTTPS skrining di Chrome. Gembok di bilah alamat berarti sambungan terenkripsi.",
    ],
    note: "Android meminta kunci layar (PIN, pola atau sandi) sebelum memasang sertifikat CA.",
  },
  {
    platform: "iPhone dan iPad (iOS/iPadOS)",
    id: "ios",
    steps: [
      "Buka halaman ini di **Safari** (di iPhone hanya Safari yang dapat memasang profil), lalu ketuk **Unduh sertifikat**. Safari bertanya apakah situs boleh mengunduh profil konfigurasi: ketuk `Izinkan`, lalu `Tutup` pada \"Profil Diunduh\".",
      "Buka `Pengaturan`: di bawah nama Anda muncul `Profil Diunduh` (atau buka `Umum` › `VPN & Manajemen Perangkat`). Pilih \"skrining CA lokal …\", ketuk `Instal`, masukkan kode sandi, lalu `Instal` lagi pada peringatannya.",
      "Langkah yang sering terlewat: `Pengaturan` › `Umum` › `Mengenai` › `Pengaturan Kepercayaan Sertifikat`, nyalakan \"skrining CA lokal …\" dan ketuk `Lanjutkan`. Tanpa ini Safari tetap menolak alamat HTTPS skrining.",
      "Buka alamat HTTPS skrining di Safari.",
    ],
    note: "Di layar profil, `Lainnya` › rincian sertifikat menampilkan sidik jari SHA-256 untuk dibandingkan.",
  },
  {
    platform: "Windows",
    id: "windows",
    steps: [
      "Unduh `skrining-ca.crt` dan buka (klik dua kali). Windows menampilkan rincian sertifikat \"skrining CA lokal …\".",
      "Klik `Install Certificate…` (`Pasang Sertifikat…`), pilih `Current User` (atau `Local Machine` untuk semua pengguna PC, perlu hak administrator), lalu `Place all certificates in the following store` › `Browse…` › `Trusted Root Certification Authorities` › `Next` › `Finish`.",
      "Windows memperingatkan bahwa Anda akan memasang sertifikat dari otoritas sertifikat: klik `Yes`. Chrome dan Edge mempercayainya sejak dibuka ulang.",
      "Untuk membandingkan sidik jari SHA-256: `certutil -hashfile skrining-ca.crt SHA256` di Command Prompt (huruf kecil tanpa titik dua, angkanya sama).",
      "Banyak PC lab sekaligus: sebagai administrator jalankan `certutil -addstore -f Root skrining-ca.crt` di tiap PC (atau lewat Group Policy).",
    ],
    note: "Firefox memakai daftarnya sendiri bila `security.enterprise_roots.enabled` dimatikan: `Pengaturan` › `Privasi & Keamanan` › `Lihat Sertifikat` › `Otoritas` › `Impor`, centang \"Percayai CA ini untuk mengidentifikasi situs web\".",
  },
  {
    platform: "macOS",
    id: "macos",
    steps: [
      "Unduh `skrining-ca.crt` dan buka (klik dua kali): `Akses Rantai Kunci` (Keychain Access) menambahkannya ke rantai kunci `login` (pilih `Sistem` untuk semua pengguna Mac).",
      "Di Akses Rantai Kunci klik dua kali \"skrining CA lokal …\", buka `Kepercayaan` (Trust), pilih `Selalu Percayai` (Always Trust) pada \"Saat menggunakan sertifikat ini\", tutup jendelanya dan masukkan sandi Mac.",
      "Rincian sertifikat yang sama menampilkan sidik jari SHA-256 untuk dibandingkan.",
      "Banyak Mac sekaligus: `sudo security add-trusted-cert -d -r trustRoot -k /Library/Keychains/System.keychain skrining-ca.crt`.",
    ],
  },
  {
    platform: "Linux",
    id: "linux",
    steps: [
      "Chrome atau Chromium: `Setelan` › `Privasi dan keamanan` › `Keamanan` › `Kelola sertifikat` › `Otoritas` › `Impor`, pilih `skrining-ca.crt` dan centang \"Percayai sertifikat ini untuk mengidentifikasi situs web\". Dari terminal: `certutil -d sql:$HOME/.pki/nssdb -A -t \"C,,\" -n skrining -i skrining-ca.crt` (paket libnss3-tools).",
      "Seluruh sistem (Debian, Ubuntu; curl, aplikasi lain): `sudo curl -o /usr/local/share/ca-certificates/skrining-ca.crt {plain}/ca.pem` lalu `sudo update-ca-certificates`.",
      "Firefox: `Pengaturan` › `Privasi & Keamanan` › `Lihat Sertifikat` › `Otoritas` › `Impor`, centang \"Percayai CA ini untuk mengidentifikasi situs web\".",
      "Sidik jari SHA-256: `openssl x509 -inform DER -in skrining-ca.crt -noout -fingerprint -sha256`.",
    ],
  },
];

/** A piece of a step as it is shown. */
export interface StepSegment {
  kind: "text" | "code" | "strong";
  text: string;
}

/** A step's text in pieces, `{plain}` filled in with the plain port's address. */
export function stepSegments(step: string, plainAddress: string): StepSegment[] {
  return step
    .replaceAll("{plain}", plainAddress)
    .split(/(`[^`]+`|\*\*[^*]+\*\*)/)
    .filter((piece) => piece !== "")
    .map((piece) =>
      piece.startsWith("`") ? { kind: "code", text: piece.slice(1, -1) } : piece.startsWith("**") ? { kind: "strong", text: piece.slice(2, -2) } : { kind: "text", text: piece },
    );
}
