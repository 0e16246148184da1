import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, migrateToLatest } from '../../src/db/database.js';
import { databaseDigest, databaseDigester } from '../helpers/db-digest.js';
import { signUp, type Session } from '../helpers/factories.js';
import { onlyOn } from '../helpers/only-on.js';
import { adminQuery, createTestContext, type TestContext } from '../helpers/test-app.js';

/**
 * The digester the fuzz and IDOR suites take after every request answers its last digest again
 * only while nothing was written: every kind of write must still show.
 */
describe('the database digester', () => {
  let ctx: TestContext;
  let member: Session;

  beforeAll(async () => {
    ctx = await createTestContext();
    member = await signUp(ctx);
  });
  afterAll(() => ctx.close());

  it('answers the same digest while nothing is written, reads included', async () => {
    const digest = databaseDigester(ctx.db, ctx.engine);
    const first = await digest();
    await ctx.api.get('/api/auth/profile').set(member.auth).expect(200);
    const second = await digest();
    // On SQLite the mark stands still through a read. (PostgreSQL's may move: a read can prune a
    // page, and another database of the cluster writes to the same log; the digest is then read.)
    if (ctx.engine === 'sqlite') expect(second).toBe(first);
    expect(second.digest).toBe(first.digest);
    expect(second.digest).toBe((await databaseDigest(ctx.db, ctx.engine)).digest);
  });

  it('sees a write made through the API', async () => {
    const digest = databaseDigester(ctx.db, ctx.engine);
    const before = await digest();
    await ctx.api
      .put('/api/auth/profile')
      .set(member.auth)
      .send({ name: 'Renamed by the digest test' })
      .expect(200);
    const after = await digest();
    expect(after.digest).not.toBe(before.digest);
    expect(after.digest).toBe((await databaseDigest(ctx.db, ctx.engine)).digest);
  });

  it('gives the same digest after a write that was rolled back', async () => {
    const digest = databaseDigester(ctx.db, ctx.engine);
    const before = await digest();
    await expect(
      ctx.db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ name: 'never kept' }).execute();
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect((await digest()).digest).toBe(before.digest);
  });

  onlyOn('postgres').it('sees a write made on another connection', async () => {
    const digest = databaseDigester(ctx.db, ctx.engine);
    const before = await digest();
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(
      ctx.db,
    );
    // The triggers name their tables without a schema: on this connection, as the app's do.
    await adminQuery(
      `set search_path to ${rows[0]!.schema}; update users set name = 'changed elsewhere'`,
    );
    expect((await digest()).digest).not.toBe(before.digest);
  });
});

onlyOn('sqlite').describe('the database digester on a SQLite file', () => {
  it('sees a write another connection committed', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'digest-'));
    const file = path.join(dir, 'data.db');
    const handle = openDatabase({ engine: 'sqlite', file });
    try {
      await migrateToLatest(handle);
      await handle.db
        .insertInto('labels')
        .values({
          id: 'label-1',
          name: 'First',
          name_key: 'first',
          color: 'blue',
          created_at: '2026-01-01',
        })
        .execute();
      const digest = databaseDigester(handle.db, 'sqlite');
      const before = await digest();
      expect(await digest()).toBe(before);
      const other = new BetterSqlite3(file);
      other.prepare(`update labels set name = 'Changed elsewhere'`).run();
      other.close();
      expect((await digest()).digest).not.toBe(before.digest);
    } finally {
      await handle.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
