import type { Insertable, Kysely } from 'kysely';
import type { Engine } from '../db/database.js';
import type { Database } from '../db/tables.js';

/**
 * The most bind parameters one statement may carry: SQLite's SQLITE_MAX_VARIABLE_NUMBER (32766
 * in the SQLite that better-sqlite3 bundles) and PostgreSQL's 16-bit parameter count.
 */
const MAX_PARAMETERS: Record<Engine, number> = { sqlite: 32_766, postgres: 65_535 };
/**
 * Rows per statement even when the limit allows more: PostgreSQL took a third longer for
 * 13,000-row statements than for 2,000-row ones (measured here), and SQLite gains nothing either.
 */
const MAX_ROWS = 2_000;

/**
 * Inserts `rows` with as few multi-row INSERTs as the engine allows; one row per parameter set
 * is orders of magnitude slower for hundreds of thousands of rows. Run it inside a transaction.
 */
export async function insertInChunks<T extends keyof Database>(
  db: Kysely<Database>,
  engine: Engine,
  table: T,
  rows: ReadonlyArray<Insertable<Database[T]>>,
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!).length;
  const chunkSize = Math.min(MAX_ROWS, Math.floor(MAX_PARAMETERS[engine] / columns));
  for (let start = 0; start < rows.length; start += chunkSize) {
    const chunk = rows.slice(start, start + chunkSize);
    // Kysely's insert types are per table; the rows are that table's full row type.
    await db
      .insertInto(table)
      .values(chunk as never)
      .execute();
  }
}
