/**
 * A path id as the routes that "look up by key" read it: decimal digits naming a positive
 * safe integer. Anything else cannot name a row, so the caller answers its 404.
 */
export function pathId(raw: string): number | null {
  if (!/^\d{1,15}$/.test(raw)) return null;
  const value = Number(raw);
  return value >= 1 ? value : null;
}
