// A size as a person reads it, in Indonesian (decimal comma), the same on the pages and in the
// server's messages (issue 44: "5 MB" on the page and in the refusal alike). It imports
// nothing, so that the web interface bundles it too. KB = 1024 bytes, as the options read them.

const units: [size: number, name: string][] = [
  [1024 ** 3, "GB"],
  [1024 ** 2, "MB"],
  [1024, "KB"],
];

const decimal = new Intl.NumberFormat("id-ID", { maximumFractionDigits: 1 });

/** `812 KB`, `5 MB`, `5,5 MB`, `1,2 GB`: under 1 MB in KB (`0,5 KB` for a few bytes), one decimal at most. */
export function fileSize(bytes: number): string {
  const [size, name] = units.find(([size]) => bytes >= size) ?? units.at(-1)!;
  return `${decimal.format(bytes / size)} ${name}`;
}
