import { randomUUID } from 'node:crypto';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, expect } from 'vitest';
import { migrateToLatest } from '../../src/db/database.js';
import { openEmptyDatabase } from '../helpers/databases.js';
import { onlyOn } from '../helpers/only-on.js';
import { tempDir } from '../helpers/server-process.js';
import { adminQuery, POSTGRES_URL } from '../helpers/test-app.js';

const postgres = onlyOn('postgres', 'PostgreSQL catalog reads');

/**
 * The migrator asks which tables exist through the dialect's introspector (SearchPathIntrospector):
 * it must see the connection's own schema exactly as Kysely's introspector does, and nothing of
 * the other schemas on the server, so that one dropped meanwhile cannot fail a migration.
 */
postgres.describe('PostgreSQL introspection for migrations', () => {
  const others: string[] = [];
  let empty: Awaited<ReturnType<typeof openEmptyDatabase>>;

  beforeAll(async () => {
    empty = await openEmptyDatabase(tempDir());
    await migrateToLatest(empty.handle);
  });
  afterAll(async () => {
    await empty.drop();
    for (const schema of others) await adminQuery(`drop schema if exists ${schema} cascade`);
  });

  /** A schema beside ours, with one table whose name ours also has. */
  async function otherSchema() {
    const schema = `other_${randomUUID().replaceAll('-', '')}`;
    others.push(schema);
    await adminQuery(`create schema ${schema}`);
    await adminQuery(`create table ${schema}.users (id serial primary key, elsewhere text)`);
    return schema;
  }

  postgres.it('lists the tables and columns of its own schema as Kysely does', async () => {
    const other = await otherSchema();
    const tables = await empty.handle.db.introspection.getTables();
    // Kysely's own reading of the whole server, narrowed to our schema.
    const pool = new pg.Pool({ connectionString: POSTGRES_URL, max: 1 });
    const kysely = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
    try {
      const all = await kysely.introspection.getTables();
      expect(all.some((table) => table.schema === other)).toBe(true);
      const ours = all.filter((table) => table.schema === empty.handle.schema);
      expect(tables.map((table) => table.name)).toContain('tasks');
      expect(tables).toEqual(ours);
    } finally {
      await kysely.destroy();
    }
    expect(tables.every((table) => table.schema === empty.handle.schema)).toBe(true);
    // The bookkeeping tables only when asked for.
    expect(tables.map((table) => table.name)).not.toContain('kysely_migration');
    const internal = await empty.handle.db.introspection.getTables({
      withInternalKyselyTables: true,
    });
    expect(internal.map((table) => table.name)).toEqual(
      expect.arrayContaining(['kysely_migration', 'kysely_migration_lock']),
    );
    expect((await empty.handle.db.introspection.getSchemas()).map((s) => s.name)).toEqual(
      expect.arrayContaining([empty.handle.schema, other]),
    );
  });

  postgres.it('migrates while other schemas on the server are being dropped', async () => {
    const fresh = await openEmptyDatabase(tempDir());
    try {
      let dropping = true;
      // Another test run (or application) creating and dropping its schemas all the while.
      const churn = (async () => {
        while (dropping) await adminQuery(`drop schema ${await otherSchema()} cascade`);
      })();
      try {
        for (let round = 0; round < 3; round++) {
          await sql`drop schema ${sql.id(fresh.handle.schema!)} cascade`.execute(fresh.handle.db);
          await sql`create schema ${sql.id(fresh.handle.schema!)}`.execute(fresh.handle.db);
          await expect(migrateToLatest(fresh.handle)).resolves.not.toEqual([]);
        }
      } finally {
        dropping = false;
        await churn;
      }
    } finally {
      await fresh.drop();
    }
  });
});
