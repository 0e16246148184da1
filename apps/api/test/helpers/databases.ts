import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Migrator } from 'kysely';
import { migrations, openDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { adminQuery, ENGINE, POSTGRES_URL } from './test-app.js';

/**
 * A new, empty PostgreSQL database on the test server, for server processes (they take a
 * DATABASE_URL, not a schema). `drop()` removes it, even with connections still open.
 */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `tm_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  await adminQuery(`create database ${name}`);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => adminQuery(`drop database if exists ${name} with (force)`),
  };
}

/**
 * An empty, unmigrated database of the engine under test: a SQLite file in `dir`, or a new
 * schema on the PostgreSQL server. `drop()` closes it and removes the schema.
 */
export async function openEmptyDatabase(
  dir: string,
): Promise<{ handle: DatabaseHandle; drop(): Promise<void> }> {
  if (ENGINE === 'sqlite') {
    const handle = openDatabase({ engine: 'sqlite', file: path.join(dir, 'taskmanager.db') });
    return { handle, drop: () => handle.close() };
  }
  const schema = `test_${randomUUID().replaceAll('-', '')}`;
  await adminQuery(`create schema ${schema}`);
  const handle = openDatabase({ engine: 'postgres', url: POSTGRES_URL, schema, poolSize: 2 });
  return {
    handle,
    drop: async () => {
      await handle.close();
      await adminQuery(`drop schema ${schema} cascade`);
    },
  };
}

/**
 * An empty database migrated up to just before `migration`, to test that migration on data
 * written the old way. `applied` lists what migrateToLatest must then apply, in order.
 */
export async function openDatabaseBefore(
  dir: string,
  migration: string,
): Promise<{ handle: DatabaseHandle; drop(): Promise<void>; applied: string[] }> {
  const { handle, drop } = await openEmptyDatabase(dir);
  const names = Object.keys(migrations);
  const index = names.indexOf(migration);
  if (index < 1) throw new Error(`no migration before ${migration}`);
  const migrator = new Migrator({
    db: handle.db,
    provider: { getMigrations: async () => migrations },
    ...(handle.schema ? { migrationTableSchema: handle.schema } : {}),
  });
  const { error } = await migrator.migrateTo(names[index - 1]!);
  if (error) {
    await drop();
    throw error;
  }
  return { handle, drop, applied: names.slice(index) };
}
