import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/db/tables.js';

/**
 * Every table of the database under test, found in the catalogue rather than listed by hand,
 * so that a table added later is covered without anyone remembering to add it here.
 */
export async function tableNames(db: Kysely<Database>, engine: 'sqlite' | 'postgres') {
  const query =
    engine === 'sqlite'
      ? sql<{ name: string }>`select name from sqlite_master
          where type = 'table' and name not like 'sqlite_%' order by name`
      : sql<{ name: string }>`select table_name as name from information_schema.tables
          where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`;
  return (await query.execute(db)).rows.map((row) => row.name);
}

/** One row as text that does not depend on column or row order (bytes as a hash of them). */
function canonicalRow(row: Record<string, unknown>): string {
  const entries = Object.keys(row)
    .sort()
    .map((key) => {
      const value = row[key];
      if (value instanceof Uint8Array) {
        return [key, `bytes:${createHash('sha256').update(value).digest('hex')}`];
      }
      // SQLite answers integers where PostgreSQL answers numbers or booleans: same text.
      return [key, typeof value === 'boolean' ? Number(value) : value];
    });
  return JSON.stringify(entries);
}

/**
 * Left out: SQLite's stored task answers (migration 2026-11-27-501), which a read fills with what
 * the other tables already hold and whose triggers empty on any write to those; that they always
 * equal a fresh answer is what task-documents-store.test.ts checks.
 */
const DERIVED = new Set(['task_documents']);

/**
 * A digest of every row of every table (but the derived one above): equal digests before and after a request mean the
 * request changed nothing. `byTable` tells where a difference is when one shows up.
 */
export async function databaseDigest(db: Kysely<Database>, engine: 'sqlite' | 'postgres') {
  const tables = (await tableNames(db, engine)).filter((table) => !DERIVED.has(table));
  const byTable: Record<string, string> =
    engine === 'postgres' ? await digestInPostgres(db, tables) : {};
  if (engine === 'sqlite') {
    for (const table of tables) {
      const { rows } = await sql<
        Record<string, unknown>
      >`select * from ${sql.table(table)}`.execute(db);
      const hash = createHash('sha256');
      for (const line of rows.map(canonicalRow).sort()) hash.update(line).update('\n');
      byTable[table] = `${rows.length}:${hash.digest('hex').slice(0, 16)}`;
    }
  }
  return { digest: JSON.stringify(byTable), byTable };
}

export type DatabaseDigest = Awaited<ReturnType<typeof databaseDigest>>;

/**
 * What moves whenever a row of the database is written, read in one statement:
 * - SQLite: the rows this connection inserted, updated or deleted (`total_changes()`, triggers'
 *   included), with `data_version` (moved by any other connection's commit) and `schema_version`;
 * - PostgreSQL: the write-ahead log's insert position, which every write to a (logged) table of
 *   the cluster moves, whichever connection made it.
 * It can move with nothing changed (a write undone, a rolled back transaction, another database of
 * the cluster, a read that prunes a page), never stand still when a row changed.
 */
async function changeMark(db: Kysely<Database>, engine: 'sqlite' | 'postgres'): Promise<string> {
  const query =
    engine === 'sqlite'
      ? sql<{ mark: string }>`select total_changes() || ':' ||
          (select data_version from pragma_data_version) || ':' ||
          (select schema_version from pragma_schema_version) as mark`
      : sql<{ mark: string }>`select pg_current_wal_insert_lsn()::text as mark`;
  const { rows } = await query.execute(db);
  return String(rows[0]?.mark);
}

/**
 * databaseDigest, for a test that takes one after every request: while the change mark above has
 * not moved since the last digest was read, nothing was written, and that digest is answered
 * again without reading every table (the fuzz suite took two thirds of its time digesting).
 */
export function databaseDigester(db: Kysely<Database>, engine: 'sqlite' | 'postgres') {
  let last: { mark: string; digest: DatabaseDigest } | undefined;
  return async (): Promise<DatabaseDigest> => {
    // Read before the tables: a write in between moves the next mark, so is never missed.
    const mark = await changeMark(db, engine);
    if (last?.mark === mark) return last.digest;
    const digest = await databaseDigest(db, engine);
    last = { mark, digest };
    return digest;
  };
}

/** One round trip: each table's rows, as text in a fixed order, hashed by the server. */
async function digestInPostgres(db: Kysely<Database>, tables: string[]) {
  const parts = tables.map(
    (table) =>
      sql`select ${table} as name, count(*) || ':' || md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from ${sql.table(table)} t`,
  );
  const { rows } = await sql<{ name: string; digest: string }>`${sql.join(
    parts,
    sql` union all `,
  )}`.execute(db);
  return Object.fromEntries(rows.map((row) => [row.name, row.digest]));
}
