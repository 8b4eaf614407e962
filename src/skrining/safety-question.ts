// Decisions §20: the optional safety question, asked after the 68 items when an admin has
// turned it on. The project's own wording; an answer of `criticalFrom` or more opens an
// urgent follow-up case and shows the student where to get help before anything else. This
// file imports nothing, so the web interface's page asks the same question on the same scale.

export const safetyQuestion = {
  text: "Dalam dua minggu terakhir, seberapa sering Anda berpikir untuk menyakiti diri sendiri, atau merasa lebih baik tidak hidup lagi?",
  scale: { min: 1, max: 5 },
  /** The scale's words, from 1 to 5. */
  words: ["Tidak pernah", "Jarang", "Kadang-kadang", "Sering", "Hampir setiap hari"],
  criticalFrom: 3,
} as const;

/** Whether an answer asks for a person the same day. */
export const isCriticalAnswer = (answer: number | null) => answer !== null && answer >= safetyQuestion.criticalFrom;
