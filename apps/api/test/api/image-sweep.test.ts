import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../src/db/database.js';
import type { Database } from '../../src/db/tables.js';
import { startImageSweep } from '../../src/images/sweep.js';
import { createPostgresDatabase } from '../helpers/databases.js';
import {
  serverUrl,
  startServer,
  stopAfterEachTest,
  tempDir,
  waitForOutput,
} from '../helpers/server-process.js';
import { createTestContext, ENGINE } from '../helpers/test-app.js';

const HOUR = 3_600_000;

/** An unclaimed upload made `ageMs` ago, straight into the table. */
async function unclaimedImage(db: Kysely<Database>, ageMs: number): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('images')
    .values({
      id,
      content_type: 'image/webp',
      data: Buffer.from('not really a picture'),
      byte_size: 20,
      width: 1,
      height: 1,
      created_at: new Date(Date.now() - ageMs).toISOString(),
      owner_id: null,
    })
    .execute();
  return id;
}

const imageIds = async (db: Kysely<Database>) =>
  (await db.selectFrom('images').select('id').execute()).map((row) => row.id);

describe(`the sweep of unclaimed uploads runs by itself (${ENGINE})`, () => {
  const { running, cleanups } = stopAfterEachTest();

  it('runs at once and then every interval, until stopped', async () => {
    const ctx = await createTestContext();
    cleanups.push(() => ctx.close());
    const first = await unclaimedImage(ctx.db, 2 * HOUR);
    const stop = startImageSweep(ctx.db, pino({ level: 'silent' }), 50);
    cleanups.push(async () => stop());
    await expect.poll(() => imageIds(ctx.db)).not.toContain(first);
    // An upload that turns old later goes at a later run.
    const second = await unclaimedImage(ctx.db, 2 * HOUR);
    await expect.poll(() => imageIds(ctx.db)).not.toContain(second);
    stop();
    const third = await unclaimedImage(ctx.db, 2 * HOUR);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await imageIds(ctx.db)).toContain(third);
  });

  it('is started by the server process at start', { timeout: 60_000 }, async () => {
    const dataDir = tempDir();
    const env: Record<string, string> = { DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info' };
    let handle: DatabaseHandle;
    if (ENGINE === 'postgres') {
      const database = await createPostgresDatabase();
      cleanups.push(database.drop);
      env.DATABASE_URL = database.url;
      handle = openDatabase({ engine: 'postgres', url: database.url, poolSize: 2 });
    } else {
      handle = openDatabase({ engine: 'sqlite', file: path.join(dataDir, 'taskmanager.db') });
    }
    try {
      await migrateToLatest(handle);
      const old = await unclaimedImage(handle.db, 2 * HOUR);
      const young = await unclaimedImage(handle.db, 0);

      const server = startServer(env);
      running.push(server);
      await serverUrl(server);
      await waitForOutput(server, /"deleted":1,.*"msg":"deleted uploads no user claimed in time"/);
      expect(await imageIds(handle.db)).toEqual([young]);
      expect(old).not.toBe(young);
    } finally {
      await handle.close();
    }
  });
});
