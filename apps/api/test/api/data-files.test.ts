import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase } from '../../src/db/database.js';
import { createPostgresDatabase } from '../helpers/databases.js';
import {
  serverUrl,
  startServer,
  stopAfterEachTest,
  tempDir,
  waitForOutput,
} from '../helpers/server-process.js';
import { onlyOn } from '../helpers/only-on.js';
import { ENGINE } from '../helpers/test-app.js';

/**
 * The SQLite database holds every password hash: it, its -wal and -shm files, the JWT secret and
 * the DATA_DIR the app creates are the server account's alone (0600, folders 0700), on real
 * files. Files an older version left readable by others are tightened at start, with a log line.
 */

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;
const octal = (mode: number) => `0${mode.toString(8)}`;

const dirs: string[] = [];
const scratch = () => {
  const dir = tempDir();
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const { running, cleanups } = stopAfterEachTest();
// Each pass tests what its engine keeps in DATA_DIR; the other engine's tests do not apply.

/** Writes a row, so that SQLite has its -wal and -shm files open. */
async function writeSomething(file: string) {
  const handle = openDatabase({ engine: 'sqlite', file });
  await migrateToLatest(handle);
  await sql`insert into app_settings (key, value) values ('probe', 'x')`.execute(handle.db);
  return handle;
}

onlyOn('sqlite').describe('the SQLite files, opened directly', () => {
  it('creates the database folder 0700 and the database, -wal and -shm files 0600', async () => {
    const root = scratch();
    const file = path.join(root, 'new', 'data', 'taskmanager.db');
    const handle = await writeSomething(file);
    try {
      expect(fs.existsSync(`${file}-wal`)).toBe(true);
      expect(fs.existsSync(`${file}-shm`)).toBe(true);
      expect(octal(modeOf(path.join(root, 'new')))).toBe('0700');
      expect(octal(modeOf(path.dirname(file)))).toBe('0700');
      for (const suffix of ['', '-wal', '-shm']) {
        expect(octal(modeOf(file + suffix)), `taskmanager.db${suffix}`).toBe('0600');
      }
      expect(handle.tightenedFiles).toEqual([]);
    } finally {
      await handle.close();
    }
  });

  it('tightens a database and its -wal and -shm files that others can read', async () => {
    const file = path.join(scratch(), 'taskmanager.db');
    const first = await writeSomething(file);
    // As an older version left them: SQLite created the database 0644.
    for (const suffix of ['', '-wal', '-shm']) fs.chmodSync(file + suffix, 0o644);
    const reopened = openDatabase({ engine: 'sqlite', file });
    try {
      expect(reopened.tightenedFiles).toEqual([file, `${file}-wal`, `${file}-shm`]);
      for (const suffix of ['', '-wal', '-shm']) {
        expect(octal(modeOf(file + suffix)), `taskmanager.db${suffix}`).toBe('0600');
      }
      // Still the same database.
      const { rows } = await sql<{
        value: string;
      }>`select value from app_settings where key = 'probe'`.execute(reopened.db);
      expect(rows).toEqual([{ value: 'x' }]);
    } finally {
      await reopened.close();
      await first.close();
    }
  });

  it('leaves an existing folder as it is (it may be shared), only the files are tightened', async () => {
    const dir = scratch();
    fs.chmodSync(dir, 0o755);
    const handle = await writeSomething(path.join(dir, 'taskmanager.db'));
    try {
      expect(octal(modeOf(dir))).toBe('0755');
      expect(octal(modeOf(path.join(dir, 'taskmanager.db')))).toBe('0600');
    } finally {
      await handle.close();
    }
  });
});

describe(`the server process (${ENGINE} pass)`, () => {
  onlyOn('sqlite').it(
    'creates DATA_DIR 0700 with the database, -wal, -shm and JWT secret 0600',
    async () => {
      const dataDir = path.join(scratch(), 'data');
      const server = startServer({ DATA_DIR: dataDir, PORT: '0' });
      running.push(server);
      // Listening: the migrations have written, so the -wal and -shm files are in use.
      await serverUrl(server);
      expect(octal(modeOf(dataDir))).toBe('0700');
      for (const name of [
        'taskmanager.db',
        'taskmanager.db-wal',
        'taskmanager.db-shm',
        'jwt-secret',
      ]) {
        expect(octal(modeOf(path.join(dataDir, name))), name).toBe('0600');
      }
      expect(server.output()).not.toContain('made owner-only');
    },
  );

  onlyOn('sqlite').it(
    'tightens the files an older version left world-readable, and says so',
    async () => {
      const dataDir = scratch();
      const file = path.join(dataDir, 'taskmanager.db');
      const old = await writeSomething(file);
      await old.close();
      fs.chmodSync(file, 0o644);
      fs.writeFileSync(path.join(dataDir, 'jwt-secret'), 'an-older-secret-of-enough-length', {
        mode: 0o644,
      });
      fs.chmodSync(path.join(dataDir, 'jwt-secret'), 0o644);
      const server = startServer({ DATA_DIR: dataDir, PORT: '0' });
      running.push(server);
      await serverUrl(server);
      const [line] = await waitForOutput(server, /.*made owner-only.*/);
      const logged = JSON.parse(line) as { level: number; files: string[] };
      expect(logged.level).toBe(40);
      expect(logged.files).toEqual([file, path.join(dataDir, 'jwt-secret')]);
      expect(octal(modeOf(file))).toBe('0600');
      expect(octal(modeOf(path.join(dataDir, 'jwt-secret')))).toBe('0600');
    },
  );

  onlyOn('postgres').it(
    'on PostgreSQL, creates DATA_DIR 0700 for the JWT secret (0600)',
    async () => {
      const database = await createPostgresDatabase();
      cleanups.push(database.drop);
      const dataDir = path.join(scratch(), 'data');
      const server = startServer({ DATA_DIR: dataDir, DATABASE_URL: database.url, PORT: '0' });
      running.push(server);
      await serverUrl(server);
      expect(octal(modeOf(dataDir))).toBe('0700');
      expect(octal(modeOf(path.join(dataDir, 'jwt-secret')))).toBe('0600');
      expect(fs.existsSync(path.join(dataDir, 'taskmanager.db'))).toBe(false);
    },
  );
});
