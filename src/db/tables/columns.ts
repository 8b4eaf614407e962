// What several tables' columns share.
import { sql } from "drizzle-orm";

/** A column's default: the moment of the insert, as the service writes moments (ISO 8601, UTC, milliseconds). */
export const insertedAt = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

/** A screening's stress and motivation levels. */
export const levels = ["Rendah", "Sedang", "Tinggi"] as const;
