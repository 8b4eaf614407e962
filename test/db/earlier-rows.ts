/** The columns migration 0017 adds to a screening (decisions §20): nothing to judge or compute in a row without answers. */
export const measuresOfEarlierRows = {
  validitas_alasan: null,
  durasi_detik: null,
  perubahan_andal: null,
  persentil_stres: null,
  persentil_motivasi: null,
  jawaban_keselamatan: null,
} as const;
