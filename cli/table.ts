/** The characters a person sees (code points, so `→` counts once). */
const widthOf = (text: string) => Array.from(text).length;

/**
 * Rows (the header first) cut to fit `maxWidth` characters a line with two spaces between
 * columns: the columns in `shrinkable` give up characters, the widest first, down to their
 * header's width; a cut cell ends in `…`. Columns not listed are never cut.
 */
export function fitTable(table: readonly (readonly string[])[], maxWidth: number, shrinkable: readonly number[]): string[][] {
  const widths = table[0]!.map((_, column) => Math.max(...table.map((row) => widthOf(row[column]!))));
  const total = () => widths.reduce((sum, width) => sum + width, 0) + 2 * (widths.length - 1);
  while (total() > maxWidth) {
    const candidates = shrinkable.filter((column) => widths[column]! > widthOf(table[0]![column]!));
    if (candidates.length === 0) break;
    const widest = candidates.reduce((best, column) => (widths[column]! > widths[best]! ? column : best));
    widths[widest]! -= 1;
  }
  return table.map((row) => row.map((cell, column) => (widthOf(cell) > widths[column]! ? `${Array.from(cell).slice(0, widths[column]! - 1).join("")}…` : cell)));
}
