import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js';

/**
 * The settings every SQLite connection of the app is opened with (openDatabase). Each one is
 * there for a reason a request would feel: lost writes, refused writes under a second process,
 * a log synced at every commit, or a temporary file per status change.
 */
describe('the SQLite connection', () => {
  let dir: string;
  let handle: DatabaseHandle;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-connection-'));
    handle = openDatabase({ engine: 'sqlite', file: path.join(dir, 'settings.db') });
  });
  afterAll(async () => {
    await handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const pragma = async (name: string) => {
    const { rows } = await sql<Record<string, unknown>>`${sql.raw(`pragma ${name}`)}`.execute(
      handle.db,
    );
    // One row of one column, named after the setting (busy_timeout's is `timeout`).
    return Object.values(rows[0] ?? {})[0];
  };

  it('writes ahead to a log, synced at checkpoints rather than at every commit', async () => {
    expect(await pragma('journal_mode')).toBe('wal');
    // NORMAL is 1: safe in WAL mode (a power cut may lose the last commits, never the file).
    expect(await pragma('synchronous')).toBe(1);
  });

  it('enforces foreign keys and waits for another process’s write lock', async () => {
    expect(await pragma('foreign_keys')).toBe(1);
    expect(await pragma('busy_timeout')).toBe(5000);
  });

  it('keeps temporary b-trees in memory, never in a temporary file', async () => {
    // 2 is MEMORY (0 the compile-time default, which for this build means a file).
    expect(await pragma('temp_store')).toBe(2);
    // A statement that needs one (a sort no index gives) still answers.
    await sql`create table numbers (n integer)`.execute(handle.db);
    await sql`insert into numbers (n) values (3), (1), (2)`.execute(handle.db);
    const { rows } = await sql<{ n: number }>`select n from numbers order by n`.execute(handle.db);
    expect(rows.map((row) => row.n)).toEqual([1, 2, 3]);
  });
});
