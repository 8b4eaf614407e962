import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { javascriptBcrypt, nativeBcrypt, type Bcrypt } from "../src/accounts/bcrypt";
import { reason, runTimed } from "./processes";

export const bcryptCost = 10;

/** The two implementations the service may use (src/accounts/bcrypt.ts), whatever SKRINING_BCRYPT says. */
export async function bcryptImplementations(): Promise<{ native: Bcrypt; javascript: Bcrypt }> {
  return { native: nativeBcrypt(await import("@node-rs/bcrypt")), javascript: javascriptBcrypt() };
}

/**
 * The machine's bcrypt limit: as many hashes in flight as there are cores, counted over
 * `seconds`. Each runs on a thread of its own: the addon's pool, or bcryptjs's workers.
 */
export async function bcryptHashesPerSecond(bcrypt: Bcrypt, cores: number, seconds: number): Promise<number> {
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let done = 0;
  const lane = async () => {
    while (performance.now() < deadline) {
      await bcrypt.hash("bench-raw-password", bcryptCost);
      done++;
    }
  };
  await Promise.all(Array.from({ length: cores }, lane));
  return done / ((performance.now() - started) / 1000);
}

/** What one sign-in's password check takes on an idle server: the median of `rounds` checks, one at a time. */
export async function bcryptMillisecondsPerCheck(bcrypt: Bcrypt, rounds: number): Promise<number> {
  const hash = await bcrypt.hash("bench-raw-password", bcryptCost);
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    if (!(await bcrypt.verify("bench-raw-password", hash))) throw new Error(`${bcrypt.implementation} bcrypt did not verify its own hash`);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

/** An import file as a faculty would write it: a few lecturers, then their students. */
function accountsCsv(accounts: number): string {
  const lecturers = Math.max(1, Math.round(accounts / 40));
  const lines = ["role,username,password,nim,nip,nama,jurusan,angkatan,kelas,nip_doswal,activated"];
  for (let index = 0; index < lecturers; index++) {
    lines.push(`dosen,impor.dosen${index},dosen-pass-${index},,19850101201001${String(index).padStart(4, "0")},Dosen Impor ${index},,,,,true`);
  }
  for (let index = 0; index < accounts - lecturers; index++) {
    const nim = `26${String(index).padStart(6, "0")}`;
    const advisor = `19850101201001${String(index % lecturers).padStart(4, "0")}`;
    lines.push(`mahasiswa,${nim},mhs-pass-${index},${nim},,Mahasiswa ${index},D3 Sistem Informasi,2026,${"ABCD"[index % 4]},${advisor},false`);
  }
  return lines.join("\n") + "\n";
}

export interface ImportMeasurement {
  accounts: number;
  milliseconds: number;
  accountsPerSecond: number;
}

/** Times `skrining accounts import` of `accounts` new accounts into an empty data folder. */
export async function measureImport(cli: string[], workDir: string, env: Record<string, string | undefined>, accounts: number): Promise<ImportMeasurement> {
  const dataDir = join(workDir, "import-data");
  mkdirSync(dataDir, { recursive: true });
  const file = join(workDir, "accounts.csv");
  writeFileSync(file, accountsCsv(accounts));
  const finished = await runTimed([...cli, "--data", dataDir, "accounts", "import", file], { env: { ...env, SKRINING_BCRYPT_COST: String(bcryptCost) } });
  if (finished.exitCode !== 0) throw new Error(`accounts import failed: ${reason(finished)}`);
  return { accounts, milliseconds: finished.milliseconds, accountsPerSecond: accounts / (finished.milliseconds / 1000) };
}
