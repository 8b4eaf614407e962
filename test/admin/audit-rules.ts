// The admin console's routes in test/audit/routes.test.ts's account of every route: where
// its command leaves no row, neither does the console; the others leave their command's
// rows, tested in this folder.

export const consoleRoutesWithoutRows: [route: string, reason: string][] = [
  ["GET /api/admin/batas", "the upload limits"],
  ["GET /api/admin/konsol", "whether the console answers this client, and its address"],
  ["POST /api/admin/konfirmasi", "a confirmation changes nothing; a wrong password leaves login_failed (test/admin/confirmation.test.ts)"],
  ["GET /api/admin/akun", "accounts list leaves none"],
  ["POST /api/admin/akun/impor/pratinjau", "a preview writes nothing"],
  ["GET /api/admin/cadangan", "the schedule and the archives' names"],
  ["POST /api/admin/cadangan", "backup leaves none"],
  ["GET /api/admin/sertifikat", "the certificate's public facts (tls status leaves none)"],
  ["POST /api/admin/sertifikat/perbarui", "tls init leaves none; the log names the admin (test/tls/serve-tls.test.ts)"],
  ["GET /api/admin/jejak", "audit list leaves none"],
  ["GET /api/admin/jejak/csv", "audit list leaves none"],
  ["GET /api/admin/jejak/periksa", "audit verify leaves none"],
  ["GET /api/admin/privasi/:nim", "the dry run of erase writes nothing"],
  ["GET /api/admin/model", "model list leaves none"],
  ["POST /api/admin/model/coba", "model predict leaves none"],
  ["GET /api/admin/teks", "contact export and notice export leave none"],
];

export const consoleRoutesWithRows: string[] = [
  "POST /api/admin/akun",
  "POST /api/admin/akun/impor",
  "POST /api/admin/akun/:username/reset-password",
  "POST /api/admin/akun/:username/aktifkan",
  "POST /api/admin/akun/:username/nonaktifkan",
  "GET /api/admin/cadangan/:name",
  "GET /api/admin/privasi/:nim/ekspor",
  "GET /api/admin/privasi/:nim/ekspor/json",
  "POST /api/admin/privasi/:nim/batasi",
  "POST /api/admin/privasi/:nim/akhiri-pembatasan",
  "POST /api/admin/privasi/:nim/hapus",
  "POST /api/admin/model",
  "POST /api/admin/model/:id/aktifkan",
  "POST /api/admin/model/:id/nonaktifkan",
  "DELETE /api/admin/model/:id",
  "GET /api/admin/model/validasi",
  "PUT /api/admin/teks/bantuan",
  "PUT /api/admin/teks/pemberitahuan",
  "PUT /api/admin/teks/keselamatan",
  "GET /api/admin/statistik",
  "GET /api/admin/statistik/ekspor",
  "GET /api/admin/statistik/mingguan",
  "GET /api/admin/statistik/mingguan/csv",
];
