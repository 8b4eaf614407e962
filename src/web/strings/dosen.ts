// Texts of the advisor's (and the admin's) pages.

export const staff = {
  nav: {
    bimbingan: "Mahasiswa bimbingan",
    statistik: "Statistik",
  },
} as const;
