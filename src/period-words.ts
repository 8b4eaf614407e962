// A period in Indonesian words as a schedule gives it (`24 jam`, `7 hari`, `30 menit`): the
// console's Cadangan page and `skrining doctor` say it alike. It imports nothing, so that
// the web interface's bundle takes it as it is.

/** The largest whole unit the period is a multiple of; seconds otherwise. */
export function periodInWords(milliseconds: number): string {
  const units: [number, string][] = [
    [86_400_000, "hari"],
    [3_600_000, "jam"],
    [60_000, "menit"],
  ];
  const [size, name] = units.find(([size]) => milliseconds % size === 0) ?? [1000, "detik"];
  return `${milliseconds / size} ${name}`;
}
