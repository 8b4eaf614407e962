import { Column, SQL, Table, getTableColumns, is } from "drizzle-orm";

interface Field {
  group: string | null;
  key: string;
  decode: (value: unknown) => unknown;
}

/** What drizzle decodes an SQL field's value with (`mapWith`): set on the SQL, not in its public type. */
type Decoder = { mapFromDriverValue(value: unknown): unknown };
const decoderOfSql = (field: SQL) => (field as unknown as { decoder: Decoder }).decoder;

function decoderOf(field: unknown): (value: unknown) => unknown {
  if (is(field, Column)) return (value) => field.mapFromDriverValue(value);
  if (is(field, SQL)) return (value) => decoderOfSql(field).mapFromDriverValue(value);
  if (is(field, SQL.Aliased)) return (value) => decoderOfSql(field.sql).mapFromDriverValue(value);
  throw new Error("rowReader: a field that is neither a column nor SQL");
}

/**
 * The rows of a hot read of many rows, made from its statement's raw values (`.values()`)
 * as drizzle makes them in `.all()`, without drizzle's cost per row: its mapping walks every
 * column's path with an iterator and an array per step, two arrays per column per row (a
 * lecturer's page of 20 advisees: ≈ 1,600 arrays, most of the page's garbage, which grew
 * the heap under many lecturers; issue 46). The plan is made once per selection. It knows
 * what the hot reads select: fields at most one level deep (a table or an object of
 * columns), and left-joined groups (`nullable`) that are null when their first column is,
 * as drizzle's are.
 */
export function rowReader<Row>(selection: Record<string, unknown>, nullable: readonly string[] = []): (values: readonly unknown[]) => Row {
  const fields: Field[] = [];
  for (const [name, field] of Object.entries(selection)) {
    if (is(field, Column) || is(field, SQL) || is(field, SQL.Aliased)) fields.push({ group: null, key: name, decode: decoderOf(field) });
    else {
      const columns = is(field, Table) ? getTableColumns(field) : (field as Record<string, unknown>);
      for (const [key, column] of Object.entries(columns)) fields.push({ group: name, key, decode: decoderOf(column) });
    }
  }
  const nullableGroups = new Set(nullable);
  return (values) => {
    const row: Record<string, unknown> = {};
    for (let index = 0; index < fields.length; index++) {
      const { group, key, decode } = fields[index]!;
      const raw = values[index];
      const value = raw === null ? null : decode(raw);
      if (group === null) {
        row[key] = value;
        continue;
      }
      if (!(group in row)) {
        // A left-joined group whose first column is null had no row to join.
        if (raw === null && nullableGroups.has(group)) {
          row[group] = null;
          continue;
        }
        row[group] = {};
      }
      const target = row[group] as Record<string, unknown> | null;
      if (target !== null) target[key] = value;
    }
    return row as Row;
  };
}
