import { closeSync, fsyncSync, openSync } from "node:fs";
import { hashPassword } from "../src/accounts/passwords";
import { openDatabase } from "../src/db";
import { fallbackMotivationLevel, fallbackStressLevel, motivationKeys, scoreSdi, scoreStress, stressKeys } from "../src/skrining/scoring";
import { suggestionsFor } from "../src/skrining/suggestions";

/** Every generated account logs in with this password. */
export const benchPassword = "bench-password-1";

/**
 * The cost of the one bcrypt hash every generated account shares: the lowest bcrypt
 * allows. No run measures a login, and the bench logs in every lecturer and tens of
 * thousands of students for their own tokens (at cost 10 that would be about 30 ms of
 * bcrypt each, an hour for 100,000); a sign-in's check at the deployment's cost is
 * measured on its own (bench/accounts.ts). A bcrypt hash is never rehashed at login.
 */
export const benchHashCost = 4;

export interface DatasetShape {
  students: number;
  /** Advisees of the one large lecturer; the other students go to small groups. */
  largeLecturerAdvisees: number;
  /** Advisees of every other lecturer (the last group may be smaller). */
  adviseesPerLecturer: number;
  screenings: number;
  /** Students of one more lecturer, with no screening yet: a class that submits together. */
  classSize: number;
}

export const fullShape: DatasetShape = { students: 100_000, largeLecturerAdvisees: 20_000, adviseesPerLecturer: 60, screenings: 1_000_000, classSize: 200 };

/** The same proportions, `scale` times the size (a smoke run of the bench itself). */
export function scaledShape(scale: number): DatasetShape {
  if (scale === 1) return fullShape;
  const students = Math.max(100, Math.round(fullShape.students * scale));
  return {
    students,
    largeLecturerAdvisees: Math.round(students / 5),
    adviseesPerLecturer: fullShape.adviseesPerLecturer,
    screenings: students * (fullShape.screenings / fullShape.students),
    classSize: fullShape.classSize,
  };
}

export interface Dataset {
  shape: DatasetShape & { lecturers: number };
  /** A student with screenings, advised by `typicalLecturer`. */
  student: { username: string; nim: string };
  /** Another student, the one the admin submits questionnaires for. */
  questionnaireNim: string;
  typicalLecturer: { username: string; nip: string; advisees: number };
  /** Every lecturer with a full group of `adviseesPerLecturer` (the typical one among them). */
  groupLecturers: { username: string; nip: string }[];
  /** An advisee of the large lecturer with screenings: the detail page. */
  largeLecturer: { username: string; nip: string; advisees: number; adviseeNim: string };
  /** The NIMs (and usernames) of the class. */
  classNims: string[];
  admin: { username: string };
  seconds: number;
}

/** A small deterministic generator (mulberry32), so every run builds the same data. */
export function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const integer = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  // Box–Muller: answers cluster around a student's tendency instead of being uniform.
  const normal = (mean: number, deviation: number) => mean + deviation * Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  return { next, integer, pick, normal };
}

type Random = ReturnType<typeof generator>;

// Profile values as the faculty's forms and the model bundles know them (decisions.md §4).
const jurusanNames = [
  "D3 Sistem Informasi",
  "D3 Sistem Informasi Akuntansi",
  "D3 Manajemen Pemasaran",
  "D3 Digital Marketing",
  "D3 Teknik Sipil",
  "D4 Sistem Informasi Kota Cerdas",
  "S1 Manajemen",
  "S2 Magister Manajemen",
];
const genders = ["Laki-laki", "Perempuan"];
const exercise = ["Tidak pernah", "1-3 kali", "4-6 kali", ">7 kali"];
const sleep = ["< 4 Jam", "4-5 Jam", "6-7 Jam", "> 7 Jam"];
const firstNames = ["Ahmad", "Budi", "Citra", "Dewi", "Eka", "Fajar", "Gita", "Hendra", "Indah", "Joko", "Kartika", "Lestari", "Made", "Nur", "Putri", "Rizki", "Sari", "Tono", "Wahyu", "Yuni"];
const lastNames = ["Saputra", "Wijaya", "Lestari", "Pratama", "Hidayat", "Kusuma", "Nugroho", "Rahmawati", "Santoso", "Siregar", "Utami", "Wibowo"];

interface AnswerSet {
  json: string;
  scoreStress: number;
  scoreSdi: number;
  stress: string;
  motivasi: string;
  saran: string;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, Math.round(value)));

/**
 * Answer sets ordered from low to high stress tendency, each with a random motivation
 * profile; scores, levels and `saran` come from the project's own scoring (the threshold
 * path), so every stored row is one the service could have written.
 */
function answerPool(random: Random, size: number): AnswerSet[] {
  return Array.from({ length: size }, (_, index) => {
    const stressTendency = 1.2 + (2.8 * index) / size;
    // Leaning towards motivated: most students are.
    const drive = random.next() * 1.6 - 0.5;
    const jawaban: Record<string, number> = {};
    for (const key of stressKeys) jawaban[key] = clamp(random.normal(stressTendency, 0.8), 1, 5);
    motivationKeys.forEach((key, item) => {
      // M1–M16 intrinsic and identified, M17–M24 introjected and external, M25–M28 amotivation.
      const mean = item < 16 ? 4 + 2 * drive : item < 24 ? 4 : 4 - 2 * drive;
      jawaban[key] = clamp(random.normal(mean, 1), 1, 7);
    });
    const answers = { stress: stressKeys.map((key) => jawaban[key]!), motivation: motivationKeys.map((key) => jawaban[key]!) };
    const score = scoreStress(answers);
    const sdi = scoreSdi(answers);
    const stress = fallbackStressLevel(score);
    const motivasi = fallbackMotivationLevel(sdi);
    return { json: JSON.stringify(jawaban), scoreStress: score, scoreSdi: sdi, stress, motivasi, saran: suggestionsFor(stress, motivasi).saran };
  });
}

/**
 * `count` questionnaire bodies as students send them (no NIM), answers drawn like the
 * history's (so some raise a follow-up case), seeded: the same every run.
 */
export function questionnaireBodies(count: number, seed = 20_251_126): string[] {
  return answerPool(generator(seed), count).map((answers) => `{"jawaban":${answers.json}}`);
}

/** How many screenings each student has: 0–20 (mean 10), adjusted so the total is exact. */
function screeningCounts(random: Random, students: number, total: number, maximum: number): Uint8Array {
  const counts = new Uint8Array(students);
  let sum = 0;
  for (let index = 0; index < students; index++) {
    counts[index] = random.integer(0, 20);
    sum += counts[index]!;
  }
  while (sum !== total) {
    const index = random.integer(0, students - 1);
    if (sum < total && counts[index]! < maximum) {
      counts[index]!++;
      sum++;
    } else if (sum > total && counts[index]! > 0) {
      counts[index]!--;
      sum--;
    }
  }
  return counts;
}

const nip = (index: number) => `19${String(7_000_000_000_000_000 + index * 7919).padStart(16, "0")}`;
const nimOf = (index: number, angkatan: number) => `${angkatan % 100}${String(index).padStart(6, "0")}`;

const dayMilliseconds = 24 * 3600 * 1000;
const weekMilliseconds = 7 * dayMilliseconds;
const historyWeeks = 26;

/**
 * Fills an empty data folder: the schema comes from the project's own `openDatabase`
 * (migrations included), then accounts, profiles and screenings are bulk-inserted with
 * prepared statements in large transactions. Every account shares one bcrypt hash of
 * `benchPassword` at `benchHashCost`: hashing 100,000 passwords would measure bcrypt, not
 * the service.
 */
export async function generateDataset(databasePath: string, shape: DatasetShape, seed = 20_251_122): Promise<Dataset> {
  const started = performance.now();
  const random = generator(seed);
  const passwordHash = await hashPassword(benchPassword, benchHashCost);
  const db = openDatabase(databasePath);
  const sqlite = db.$client;
  // A bulk load into a fresh file: nothing to protect against a power cut yet. The server
  // reopens it later with its own settings (WAL, synchronous FULL).
  sqlite.run("PRAGMA journal_mode = MEMORY");
  sqlite.run("PRAGMA synchronous = OFF");
  sqlite.run("PRAGMA cache_size = -262144");

  const insertUser = sqlite.prepare("INSERT INTO users (Id_User, username, password_hash, role, is_activated) VALUES (?, ?, ?, ?, 1)");
  const insertJurusan = sqlite.prepare("INSERT INTO jurusan (Id_Jurusan, nama_jurusan) VALUES (?, ?)");
  const insertDosen = sqlite.prepare("INSERT INTO dosen (NIP, nama_dosen, Id_User) VALUES (?, ?, ?)");
  const insertMahasiswa = sqlite.prepare(
    "INSERT INTO mahasiswa (NIM, nama_mahasiswa, Id_User, id_jurusan, angkatan, kelas, NIP_doswal, IPK, usia, gender, freq_olahraga, durasi_tidur) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const insertSkrining = sqlite.prepare(
    "INSERT INTO riwayat_skrining (NIM, tanggal_skrining, input_jawaban, tingkat_stres, tingkat_motivasi, saran, score_stress, score_sdi) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
  );

  // Every n-th student belongs to the large lecturer, so that lecturer's advisees are
  // spread over the whole NIM range, as a real intake would be.
  const everyLarge = Math.round(shape.students / shape.largeLecturerAdvisees);
  const largeAdvisees = Math.ceil(shape.students / everyLarge);
  const smallLecturers = Math.ceil((shape.students - largeAdvisees) / shape.adviseesPerLecturer);
  const lecturers = 1 + smallLecturers;
  const name = () => `${random.pick(firstNames)} ${random.pick(lastNames)}`;
  let userId = 1;

  sqlite.transaction(() => {
    insertUser.run(userId++, "admin", passwordHash, "admin");
    jurusanNames.forEach((nama, index) => insertJurusan.run(index + 1, nama));
    for (let index = 0; index < lecturers; index++) {
      insertUser.run(userId, `dosen${index}`, passwordHash, "dosen");
      insertDosen.run(nip(index), `Dr. ${name()}`, userId++);
    }
  })();

  const pool = answerPool(random, 4096);
  const counts = screeningCounts(random, shape.students, shape.screenings, historyWeeks);
  const historyStart = Date.now() - (historyWeeks + 1) * weekMilliseconds;
  const weeks = Array.from({ length: historyWeeks }, (_, week) => week);

  let student: Dataset["student"] | undefined;
  let largeAdviseeNim: string | undefined;
  let questionnaireNim: string | undefined;
  let smallIndex = 0;
  const batch = 10_000;
  for (let first = 0; first < shape.students; first += batch) {
    sqlite.transaction(() => {
      for (let index = first; index < Math.min(first + batch, shape.students); index++) {
        const large = index % everyLarge === 0;
        const lecturer = large ? 0 : 1 + Math.floor(smallIndex++ / shape.adviseesPerLecturer);
        const angkatan = random.integer(2019, 2025);
        const nim = nimOf(index, angkatan);
        insertUser.run(userId, nim, passwordHash, "mahasiswa");
        insertMahasiswa.run(
          nim,
          name(),
          userId++,
          random.integer(1, jurusanNames.length),
          String(angkatan),
          random.pick(["A", "B", "C", "D"]),
          nip(lecturer),
          Math.min(4, Math.max(0, Math.round(random.normal(3.2, 0.4) * 100) / 100)),
          2025 - angkatan + random.integer(18, 20),
          random.pick(genders),
          random.pick(exercise),
          random.pick(sleep),
        );
        if (large && counts[index]! > 0) largeAdviseeNim ??= nim;
        if (lecturer === 1 && counts[index]! > 0) {
          if (!student) student = { username: nim, nim };
          else questionnaireNim ??= nim;
        }

        // k distinct weeks of the last six months, at the student's own weekday; the
        // jitters are sorted so consecutive screenings stay at least 7 days apart.
        const count = counts[index]!;
        for (let pickIndex = 0; pickIndex < count; pickIndex++) {
          const swap = random.integer(pickIndex, historyWeeks - 1);
          [weeks[pickIndex], weeks[swap]] = [weeks[swap]!, weeks[pickIndex]!];
        }
        const chosen = weeks.slice(0, count).sort((a, b) => a - b);
        const jitters = chosen.map(() => random.next() * 6 * 3600 * 1000).sort((a, b) => a - b);
        const weekday = random.next() * weekMilliseconds;
        const tendency = random.integer(0, pool.length - 1);
        chosen.forEach((week, order) => {
          const answers = pool[Math.min(pool.length - 1, Math.max(0, tendency + random.integer(-300, 300)))]!;
          const tanggal = new Date(historyStart + week * weekMilliseconds + weekday + jitters[order]!).toISOString();
          insertSkrining.run(nim, tanggal, answers.json, answers.stress, answers.motivasi, answers.saran, answers.scoreStress, answers.scoreSdi);
        });
      }
    })();
  }

  const classLecturer = lecturers;
  const classNims = Array.from({ length: shape.classSize }, (_, index) => nimOf(shape.students + index, 2025));
  sqlite.transaction(() => {
    insertUser.run(userId, `dosen${classLecturer}`, passwordHash, "dosen");
    insertDosen.run(nip(classLecturer), `Dr. ${name()}`, userId++);
    for (const nim of classNims) {
      insertUser.run(userId, nim, passwordHash, "mahasiswa");
      insertMahasiswa.run(nim, name(), userId++, random.integer(1, jurusanNames.length), "2025", "A", nip(classLecturer), 3.2, 19, random.pick(genders), random.pick(exercise), random.pick(sleep));
    }
  })();

  // No ANALYZE: a real deployment never runs it, so the planner sees what it sees there.
  sqlite.run("PRAGMA journal_mode = WAL");
  sqlite.close();
  // Flush the file now: otherwise the first fsync of whatever writes next (a `model add`,
  // the first submission) pays for writing the whole gigabyte and is timed with it.
  const file = openSync(databasePath, "r+");
  try {
    fsyncSync(file);
  } finally {
    closeSync(file);
  }
  if (!largeAdviseeNim) throw new Error("dataset too small: the large lecturer has no screened advisee");
  if (!student || !questionnaireNim) throw new Error("dataset too small: the typical lecturer has fewer than two screened advisees");
  return {
    shape: { ...shape, lecturers: lecturers + 1 },
    student,
    questionnaireNim,
    typicalLecturer: { username: "dosen1", nip: nip(1), advisees: Math.min(shape.adviseesPerLecturer, shape.students - largeAdvisees) },
    groupLecturers: Array.from({ length: Math.floor((shape.students - largeAdvisees) / shape.adviseesPerLecturer) }, (_, index) => ({ username: `dosen${index + 1}`, nip: nip(index + 1) })),
    largeLecturer: { username: "dosen0", nip: nip(0), advisees: largeAdvisees, adviseeNim: largeAdviseeNim },
    classNims,
    admin: { username: "admin" },
    seconds: (performance.now() - started) / 1000,
  };
}
