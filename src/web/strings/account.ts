// Texts every signed-in account may meet outside its own pages: the one-time password's
// replacement, and the admin menu's way into the console.

/** The admin console's entry in an admin's menu (its pages have their own texts, strings/admin.ts). */
export const consoleLink = "Konsol admin";
/** A console page opened where `serve --admin-web` keeps the console out (its reason follows, from the server). */
export const consoleClosedTitle = "Konsol admin tidak dapat dibuka";

export const passwordChange = {
  title: "Ganti password sekali pakai",
  intro: "Anda masuk dengan password sekali pakai dari admin fakultas. Buat password baru yang hanya Anda ketahui sebelum melanjutkan.",
  temporary: "Password sekali pakai",
  newPassword: "Password baru",
  newPasswordHint: "8 sampai 72 karakter, berbeda dari password sekali pakai.",
  repeat: "Ulangi password baru",
  submit: "Simpan password baru",
  submitting: "Menyimpan…",
  same: "Password baru harus berbeda dari password sekali pakai.",
} as const;
