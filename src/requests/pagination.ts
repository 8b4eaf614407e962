/** Page and page size from a query string (decisions §4): bad or < 1 falls back, size capped at 100. */
export function readPagination(query: Record<string, string | undefined>, defaultPerPage: number) {
  const positive = (raw: string | undefined, fallback: number) => {
    const value = raw !== undefined && /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
    return Number.isSafeInteger(value) && value >= 1 ? value : fallback;
  };
  const page = positive(query.page, 1);
  const perPage = Math.min(100, positive(query.per_page, defaultPerPage));
  return { page, perPage, offset: (page - 1) * perPage };
}

export function totalPages(total: number, perPage: number): number {
  return total === 0 ? 0 : Math.ceil(total / perPage);
}
