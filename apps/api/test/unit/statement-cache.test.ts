import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js';

/**
 * SQLite statements are prepared once and kept (openDatabase's statement cache): a kept
 * statement must still see schema changes, and many distinct statements must all still run.
 */
describe('SQLite statement cache', () => {
  let handle: DatabaseHandle;
  let dir: string;
  afterEach(async () => {
    await handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function open() {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statement-cache-'));
    handle = openDatabase({ engine: 'sqlite', file: path.join(dir, 'cache.db') });
    return handle.db;
  }

  it('a kept statement follows a schema change made after it was prepared', async () => {
    const db = open();
    await sql`create table notes (id integer primary key, text text)`.execute(db);
    await sql`insert into notes (text) values ('first')`.execute(db);
    const read = () => sql<Record<string, unknown>>`select * from notes order by id`.execute(db);
    expect((await read()).rows).toEqual([{ id: 1, text: 'first' }]);

    await sql`alter table notes add column done integer not null default 0`.execute(db);
    expect((await read()).rows).toEqual([{ id: 1, text: 'first', done: 0 }]);
    await sql`drop table notes`.execute(db);
    await expect(read()).rejects.toThrow(/no such table/);
  });

  it('runs more distinct statements than it keeps, each with its own parameters', async () => {
    const db = open();
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 450; i++) {
        const { rows } = await sql<{ value: number }>`select ${i} + ${sql.lit(i)} as value`.execute(
          db,
        );
        expect(rows).toEqual([{ value: 2 * i }]);
      }
    }
  });
});
