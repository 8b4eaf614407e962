/** The characters a person sees (code points, so `→` counts once). */
const widthOf = (text: string) => Array.from(text).length;

/**
 * A cell's text in lines of at most `width` characters: broken after a space, a `/` or
 * a `,` where one falls in the line, inside a word only when it is longer than the line.
 * Nothing is left out: joined again, the lines are the text.
 */
export function wrapCell(text: string, width: number): string[] {
  const characters = Array.from(text);
  if (characters.length <= width) return [text];
  const lines: string[] = [];
  let start = 0;
  while (characters.length - start > width) {
    let end = start + width;
    for (let at = end; at > start; at--) {
      if (/[ /,]/.test(characters[at - 1]!)) {
        end = at;
        break;
      }
    }
    lines.push(characters.slice(start, end).join("").trimEnd());
    start = end;
  }
  lines.push(characters.slice(start).join(""));
  return lines;
}

/**
 * Rows (the header first) fitted to `maxWidth` characters a line with two spaces between
 * columns: the columns in `shrinkable` give up width, the widest first, down to their
 * header's width, and a cell wider than its column goes on over the next lines of that
 * column (the other columns empty there), so no value is cut. Columns not listed keep
 * their width. Returns the lines as rows of cells, for formatTable.
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
  return table.flatMap((row) => {
    const wrapped = row.map((cell, column) => wrapCell(cell, widths[column]!));
    const height = Math.max(...wrapped.map((lines) => lines.length));
    return Array.from({ length: height }, (_, line) => wrapped.map((lines) => lines[line] ?? ""));
  });
}
