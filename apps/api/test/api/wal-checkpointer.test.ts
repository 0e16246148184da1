import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, vi } from 'vitest';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { BACKSTOP_PAGES, startWalCheckpointer } from '../../src/db/wal-checkpointer.js';
import { onlyOn } from '../helpers/only-on.js';

const sqliteOnly = onlyOn('sqlite', 'PostgreSQL has no log file of its own to copy back');

describe('the WAL checkpointer (SQLite)', () => {
  let dir: string;
  let file: string;
  let handle: DatabaseHandle;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'checkpointer-'));
    file = path.join(dir, 'taskmanager.db');
    handle = openDatabase({ engine: 'sqlite', file });
    await migrateToLatest(handle);
  });
  afterAll(async () => {
    await handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  sqliteOnly.it(
    'copies the log back from its own thread, the request connection keeping a backstop',
    async () => {
      const checkpointer = await startWalCheckpointer(handle.db, file, { everyMs: 30 });
      const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(
        handle.db,
      );
      expect(Number(rows[0]!.wal_autocheckpoint)).toBe(BACKSTOP_PAGES);
      // Writes land in the log; the thread copies them into the database file.
      for (let n = 0; n < 50; n++) {
        await sql`insert into app_settings (key, value) values (${`checkpoint-${n}`}, ${'x'.repeat(2000)})`.execute(
          handle.db,
        );
      }
      await vi.waitFor(() => expect(checkpointer.lastCheckpointed).toBeGreaterThan(0), {
        timeout: 10_000,
        interval: 20,
      });
      expect(checkpointer.runs).toBeGreaterThan(0);
      expect(checkpointer.lastCheckpointed).toBeGreaterThan(0);
      // Stopped, the thread is gone and the request connection goes on working.
      await checkpointer.stop();
      const runs = checkpointer.runs;
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(checkpointer.runs).toBe(runs);
      const { rows: kept } = await sql<{ count: number }>`select count(*) as count
        from app_settings where key like 'checkpoint-%'`.execute(handle.db);
      expect(Number(kept[0]!.count)).toBe(50);
    },
  );
});
