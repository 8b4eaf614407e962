import text from "../CHANGELOG.md" with { type: "text" };

// CHANGELOG.md, embedded in the executable (issue 44, item 7): the faculty reads what a
// release changed from the program itself, `skrining changelog`. Each release is a section
// `## MAJOR.MINOR.PATCH (date)`, newest first.

export const changelog = text;

const releaseHeading = /^## (\d+\.\d+\.\d+)\b.*$/gm;

/** The releases the changelog describes, newest first, as their headings name them. */
export function releases(): string[] {
  return [...changelog.matchAll(releaseHeading)].map((match) => match[1]!);
}

/** The section of `version` (its heading and text), or null when the changelog has none. */
export function releaseNotes(version: string): string | null {
  const headings = [...changelog.matchAll(releaseHeading)];
  const index = headings.findIndex((match) => match[1] === version);
  if (index === -1) return null;
  const start = headings[index]!.index!;
  const end = headings[index + 1]?.index ?? changelog.length;
  return `${changelog.slice(start, end).trimEnd()}\n`;
}
