import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/database.js';
import type { Database } from '../../src/db/tables.js';
import { appendEvents } from '../../src/events/log.js';
import { openDatabaseBefore } from '../helpers/databases.js';
import { tempDir } from '../helpers/server-process.js';
import { ENGINE } from '../helpers/test-app.js';

const MIGRATION = '2026-11-29-615-events-by-id-only';

/**
 * Migration 2026-11-29-615: the live-update log loses its index on times (and, on SQLite,
 * AUTOINCREMENT). Its events keep their ids, and the next event's id follows the last one ever
 * handed out, even when the log had been pruned empty before.
 */
describe(`the live-update log keyed by id only (${ENGINE})`, { timeout: 60_000 }, () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  const event = { type: 'task.updated' as const, taskId: null, userIds: ['u1'], toAdmins: true };

  /** A log of three events before the migration, `prepare`d, then migrated, then one more. */
  async function upgraded(prepare: (db: Kysely<Database>) => Promise<void>) {
    const opened = await openDatabaseBefore(tempDir(), MIGRATION);
    cleanups.push(opened.drop);
    const { db } = opened.handle;
    await db.transaction().execute((trx) => appendEvents(trx, [event, event, event]));
    const ids = () =>
      db
        .selectFrom('events')
        .select('id')
        .orderBy('id')
        .execute()
        .then((rows) => rows.map((row) => Number(row.id)));
    const written = await ids();
    expect(written).toHaveLength(3);
    await prepare(db);
    const kept = await db.selectFrom('events').selectAll().orderBy('id').execute();
    await migrateToLatest(opened.handle);
    const migrated = await db.selectFrom('events').selectAll().orderBy('id').execute();
    await db.transaction().execute((trx) => appendEvents(trx, [event]));
    const tables = await db.introspection.getTables();
    return {
      written,
      kept,
      migrated,
      after: await ids(),
      columns: tables
        .find((table) => table.name === 'events')
        ?.columns.map((column) => column.name),
    };
  }

  it('keeps every event as it was, and numbers the next one after them', async () => {
    const { written, kept, migrated, after, columns } = await upgraded(async () => {});
    expect(migrated).toEqual(kept);
    expect(after).toEqual([...written, written[2]! + 1]);
    expect(columns).toEqual(['id', 'type', 'task_id', 'audience', 'to_admins', 'data', 'at']);
  });

  it('numbers the next event after the last one handed out, when the log was pruned empty', async () => {
    const { written, after } = await upgraded(async (db) => {
      await db.deleteFrom('events').execute();
    });
    expect(after.at(-1)).toBeGreaterThan(written[2]!);
    // SQLite keeps the last id by an event for nobody; PostgreSQL by its sequence.
    if (ENGINE === 'sqlite') {
      expect(after).toEqual([written[2]!, written[2]! + 1]);
    } else {
      expect(after).toHaveLength(1);
    }
  });

  it("has no index on the events' times any more", async () => {
    const { db } = await (async () => {
      const opened = await openDatabaseBefore(tempDir(), MIGRATION);
      cleanups.push(opened.drop);
      await migrateToLatest(opened.handle);
      return opened.handle;
    })();
    const { rows } =
      ENGINE === 'sqlite'
        ? await sql<{ name: string }>`
            select name from sqlite_schema where type = 'index' and tbl_name = 'events'`.execute(db)
        : await sql<{ name: string }>`
            select indexname as name from pg_indexes
            where tablename = 'events' and schemaname = current_schema()`.execute(db);
    expect(rows.map((row) => row.name).filter((name) => !/pkey|autoindex/.test(name))).toEqual([]);
  });
});
