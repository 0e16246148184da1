import { spawn, type ChildProcess } from 'node:child_process';
import { Readable } from 'node:stream';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect } from 'vitest';
import type { TaskListResponse } from '@task-manager/shared';
import { createPasswordHasher } from '../../src/auth/passwords.js';
import { backupCommand, restoreCommand } from '../../src/cli/sqlite-backup.js';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { FileService } from '../../src/files/service.js';
import { storeImage } from '../../src/images/service.js';
import { TaskService } from '../../src/tasks/service.js';
import { UserService } from '../../src/users/service.js';
import {
  killAll,
  startServer,
  waitForOutput,
  type ServerProcess,
} from '../helpers/server-process.js';
import { onlyOn } from '../helpers/only-on.js';
import { ENGINE, POSTGRES_URL } from '../helpers/test-app.js';
import { runBin, runCommand } from './run-cli.js';

const children: ChildProcess[] = [];
const servers: ServerProcess[] = [];
const handles: DatabaseHandle[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
  }
  await killAll(servers);
  for (const handle of handles.splice(0)) await handle.close();
});

function tempDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'tm-backup-'));
}

/** The server's database in `dataDir`, migrated, with a small team and three tasks. */
async function liveDatabase(dataDir: string) {
  const handle = openDatabase({ engine: 'sqlite', file: path.join(dataDir, 'taskmanager.db') });
  handles.push(handle);
  // Everything stays in the -wal file, whatever the migrations write (over 1,000 pages, SQLite
  // would copy them into the main file at a commit): the backup must read it from there.
  await sql`pragma wal_autocheckpoint = 0`.execute(handle.db);
  await migrateToLatest(handle);
  const users = new UserService(handle.db, createPasswordHasher(4));
  const tasks = new TaskService(handle.db);
  const password = 'a-long-password';
  const admin = await users.create({
    name: 'Ada Admin',
    email: 'ada@example.com',
    password,
    role: 'admin',
  });
  const photo = await storeImage(
    handle.db,
    Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    ),
  );
  const member = await users.create({
    name: 'Max Member',
    email: 'max@example.com',
    password,
    role: 'member',
    profileImageUrl: `/api/images/${photo.id}`,
  });
  const due = new Date(Date.now() + 86_400_000).toISOString();
  const created = [];
  for (const [index, done] of [0, 1, 2].entries()) {
    const task = await tasks.create(admin.id, {
      title: `Task ${index}`,
      description: `Description ${index}`,
      priority: 'Medium',
      dueDate: due,
      assignedTo: [member.id],
      todoChecklist: ['One', 'Two'].map((text, item) => ({ text, completed: item < done })),
      attachments: index === 0 ? ['https://example.com/spec.pdf'] : [],
    });
    created.push(task);
  }
  // A file on the first task, over several chunks: the backup holds its bytes too.
  const files = new FileService(handle.db, tasks);
  const adminUser = { id: admin.id, role: 'admin' as const, tokenVersion: 0 };
  const upload = await files.receive(created[0]!._id, admin.id, {
    name: 'minutes.bin',
    contentType: 'application/octet-stream',
    stream: Readable.from([randomBytes(600 * 1024)]),
  });
  await files.attach(adminUser, created[0]!._id, upload);
  return { handle, users, tasks, admin, member };
}

/** Everything a person would see, in a comparable form. */
async function contents(handle: DatabaseHandle) {
  const tasks = new TaskService(handle.db);
  const admin = await handle.db
    .selectFrom('users')
    .select('id')
    .where('role', '=', 'admin')
    .executeTakeFirstOrThrow();
  return {
    users: await handle.db.selectFrom('users').selectAll().orderBy('email').execute(),
    tasks: (
      JSON.parse(
        (
          await tasks.listJson({ id: admin.id, role: 'admin', tokenVersion: 0 }, { limit: 500 })
        ).json.toString(),
      ) as TaskListResponse
    ).tasks,
    images: await handle.db.selectFrom('images').select(['id', 'byte_size']).execute(),
    // The bytes of every file, by file, as a digest of its chunks in order.
    fileBytes: await fileDigests(handle),
  };
}

/** A SHA-256 of each file's bytes (its chunks in order), by file id. */
async function fileDigests(handle: DatabaseHandle): Promise<Record<string, string>> {
  const chunks = await handle.db
    .selectFrom('task_file_chunks')
    .selectAll()
    .orderBy('file_id')
    .orderBy('seq')
    .execute();
  const hashes = new Map<string, ReturnType<typeof createHash>>();
  for (const chunk of chunks) {
    const hash = hashes.get(chunk.file_id) ?? createHash('sha256');
    hashes.set(chunk.file_id, hash.update(chunk.data));
  }
  return Object.fromEntries([...hashes].map(([id, hash]) => [id, hash.digest('hex')]));
}

function openReadOnly(file: string) {
  return new SQLite(file, { readonly: true, fileMustExist: true });
}

function writerPairs(db: SQLite.Database) {
  const count = (prefix: string) =>
    Number(db.prepare(`select count(*) from app_settings where key like ?`).pluck().get(prefix));
  return { a: count('writer-a-%'), b: count('writer-b-%') };
}

/** Starts the fixture that writes to `file` from another process; resolves once it wrote. */
async function startWriter(file: string): Promise<{ stop(): Promise<number> }> {
  const child = spawn(
    process.execPath,
    [path.join(import.meta.dirname, 'fixtures/sqlite-writer.mjs'), file],
    {
      cwd: path.resolve(import.meta.dirname, '../..'),
    },
  );
  children.push(child);
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 15_000;
  while (!output.includes('ready')) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`writer: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return {
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      return Number(/pairs (\d+)/.exec(output)?.[1]);
    },
  };
}

describe(`pnpm backup and pnpm restore (${ENGINE} pass)`, () => {
  onlyOn('sqlite').it(
    'backs up while another process writes, and restore brings back exactly that state',
    async () => {
      const dataDir = tempDataDir();
      const live = path.join(dataDir, 'taskmanager.db');
      const { handle, users, tasks, member } = await liveDatabase(dataDir);
      const before = await contents(handle);
      expect(Object.keys(before.fileBytes)).toHaveLength(1);
      expect(before.tasks.flatMap((task) => task.files)).toHaveLength(1);
      const writer = await startWriter(live);

      // Everything so far is still in the -wal file: a plain copy of the main file misses it.
      const plainCopy = path.join(dataDir, 'plain-copy.db');
      fs.copyFileSync(live, plainCopy);
      const plain = openReadOnly(plainCopy);
      const plainUsers = plain
        .prepare(`select count(*) from sqlite_master where name = 'users'`)
        .pluck()
        .get();
      plain.close();
      expect(plainUsers).toBe(0);

      const backup = await runCommand(backupCommand, [], { DATA_DIR: dataDir });
      expect(backup.stderr).toBe('');
      expect(backup.code).toBe(0);
      const file = /^Backup written: (.+)$/m.exec(backup.stdout)?.[1] ?? '';
      expect(path.dirname(file)).toBe(path.join(dataDir, 'backups'));
      expect(path.basename(file)).toMatch(
        /^taskmanager-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z\.db$/,
      );
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);

      // The writer went on writing after the copy was taken...
      const inBackup = openReadOnly(file);
      const copied = writerPairs(inBackup);
      const liveReader = openReadOnly(live);
      const deadline = Date.now() + 10_000;
      while (writerPairs(liveReader).a <= copied.a && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(writerPairs(liveReader).a).toBeGreaterThan(copied.a);
      liveReader.close();
      const written = await writer.stop();
      expect(written).toBeGreaterThan(copied.a);
      // ...and the copy holds whole transactions only: both rows of a pair, or neither.
      expect(copied.a).toBeGreaterThanOrEqual(50);
      expect(copied.b).toBe(copied.a);
      expect(inBackup.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(inBackup.prepare('select count(*) from tasks').pluck().get()).toBe(3);
      inBackup.close();

      // Change things after the backup: delete a task, rename a user, add a task.
      const [first] = before.tasks;
      await tasks.delete(first!._id);
      await users.update(member.id, { name: 'Renamed Member' }, 'someone-else');
      await tasks.create(before.users[0]!.id, {
        title: 'Added after the backup',
        description: 'Gone after the restore',
        priority: 'High',
        dueDate: new Date().toISOString(),
        assignedTo: [member.id],
        todoChecklist: [{ text: 'Only item' }],
        attachments: [],
      });
      // The server stops before a restore.
      await handles.pop()!.close();

      const restore = await runCommand(restoreCommand, [file], { DATA_DIR: dataDir });
      expect(restore.stderr).toBe('');
      expect(restore.code).toBe(0);
      expect(restore.stdout).toContain(`Restored ${file} (2 users, 3 tasks)`);
      // The old database's WAL must not survive next to the new file.
      expect(fs.existsSync(`${live}-wal`)).toBe(false);
      expect(fs.readdirSync(dataDir).filter((name) => /restore|partial/.test(name))).toEqual([]);

      const reopened = openDatabase({ engine: 'sqlite', file: live });
      handles.push(reopened);
      await migrateToLatest(reopened);
      expect(await contents(reopened)).toEqual(before);
      const restoredFile = openReadOnly(live);
      expect(writerPairs(restoredFile)).toEqual(copied);
      restoredFile.close();

      // The replaced database is kept, with the changes made after the backup.
      const saved = /kept as (.+)$/m.exec(restore.stdout)?.[1] ?? '';
      expect(path.dirname(saved)).toBe(path.join(dataDir, 'backups'));
      const replaced = openReadOnly(saved);
      const titles = replaced.prepare('select title from tasks order by title').pluck().all();
      expect(titles).toEqual(
        [
          'Added after the backup',
          ...before.tasks.map((task) => task.title).filter((title) => title !== first!.title),
        ].sort(),
      );
      expect(
        replaced.prepare(`select name from users where email = 'max@example.com'`).pluck().get(),
      ).toBe('Renamed Member');
      replaced.close();
    },
  );

  onlyOn('sqlite').it(
    'backup writes to a path or folder given, and never over an existing file',
    async () => {
      const dataDir = tempDataDir();
      await liveDatabase(dataDir);
      const elsewhere = tempDataDir();
      const toFolder = await runCommand(backupCommand, [elsewhere], { DATA_DIR: dataDir });
      expect(toFolder.code).toBe(0);
      expect(toFolder.stdout).toMatch(
        new RegExp(`^Backup written: ${elsewhere}/taskmanager-.+\\.db$`),
      );

      const named = path.join(elsewhere, 'nightly.db');
      const toFile = await runCommand(backupCommand, [named], { DATA_DIR: dataDir });
      expect(toFile.stdout).toBe(`Backup written: ${named}`);
      // A relative path is taken from where the command was typed (pnpm passes INIT_CWD).
      const relative = await runCommand(backupCommand, ['again.db'], {
        DATA_DIR: dataDir,
        INIT_CWD: elsewhere,
      });
      expect(relative.stdout).toBe(`Backup written: ${path.join(elsewhere, 'again.db')}`);

      const size = fs.statSync(named).size;
      const again = await runCommand(backupCommand, [named], { DATA_DIR: dataDir });
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('already exists');
      expect(fs.statSync(named).size).toBe(size);

      // The server's rules for every variable, except that no JWT_SECRET is needed to copy a file.
      const production = await runCommand(backupCommand, [path.join(elsewhere, 'prod.db')], {
        DATA_DIR: dataDir,
        NODE_ENV: 'production',
      });
      expect(production.code).toBe(0);
      const badConfig = await runCommand(backupCommand, [], {
        DATA_DIR: dataDir,
        LOG_LEVEL: 'loud',
      });
      expect(badConfig.code).toBe(1);
      expect(badConfig.stderr).toMatch(/Invalid configuration:\n.*LOG_LEVEL/);

      const nothing = await runCommand(backupCommand, [], { DATA_DIR: tempDataDir() });
      expect(nothing.code).toBe(1);
      expect(nothing.stderr).toContain('nothing to back up');
    },
  );

  onlyOn('sqlite').it(
    'restore refuses anything that is not a Task Manager backup it can use',
    async () => {
      const dataDir = tempDataDir();
      const { handle } = await liveDatabase(dataDir);
      const before = await contents(handle);
      const good = /Backup written: (.+)/.exec(
        (await runCommand(backupCommand, [], { DATA_DIR: dataDir })).stdout,
      )![1]!;
      const scratch = tempDataDir();

      const text = path.join(scratch, 'notes.txt');
      fs.writeFileSync(text, 'these are not the tables you are looking for\n'.repeat(200));
      const otherApp = path.join(scratch, 'other-app.db');
      const other = new SQLite(otherApp);
      other.exec('create table invoices (id integer primary key, total real)');
      other.close();
      const damaged = path.join(scratch, 'damaged.db');
      fs.copyFileSync(good, damaged);
      const bytes = fs.readFileSync(damaged);
      // Scribble over every page but the first (the header and schema stay readable).
      for (let at = 4096; at < bytes.length; at += 7) bytes[at] = (at * 31) & 0xff;
      fs.writeFileSync(damaged, bytes);
      const newer = path.join(scratch, 'newer.db');
      fs.copyFileSync(good, newer);
      const newerDb = new SQLite(newer);
      newerDb
        .prepare('insert into kysely_migration (name, timestamp) values (?, ?)')
        .run('2099-01-01-001-from-the-future', new Date().toISOString());
      newerDb.close();

      const cases: Array<[string, RegExp]> = [
        [text, /is not a SQLite database/],
        [otherApp, /is a SQLite database but not a Task Manager one/],
        [damaged, /is damaged/],
        [newer, /newer version of Task Manager.*2099-01-01-001-from-the-future.*Upgrade/s],
        [path.join(scratch, 'missing.db'), /There is no file at/],
        [scratch, /is not a file/],
      ];
      for (const [file, message] of cases) {
        const result = await runCommand(restoreCommand, [file], { DATA_DIR: dataDir });
        expect(result.code, file).toBe(1);
        expect(result.stderr, file).toMatch(message);
      }
      const none = await runCommand(restoreCommand, [], { DATA_DIR: dataDir });
      expect(none.code).toBe(1);
      expect(none.stderr).toContain('Usage: pnpm restore FILE');

      // Nothing was touched: same data, no copy of the live database, no temporary files.
      expect(await contents(handle)).toEqual(before);
      expect(fs.readdirSync(path.join(dataDir, 'backups'))).toEqual([path.basename(good)]);
      expect(fs.readdirSync(dataDir).filter((name) => /restore|partial/.test(name))).toEqual([]);

      // The bin file itself, as `pnpm restore` runs it: exit code 1 and the reason.
      const bin = await runBin('restore', [text], { DATA_DIR: dataDir });
      expect(bin.code).toBe(1);
      expect(bin.stderr).toMatch(/is not a SQLite database/);
    },
  );

  onlyOn('sqlite').it(
    'restore refuses while the pid file names a live process, not a dead one',
    async () => {
      const dataDir = tempDataDir();
      await liveDatabase(dataDir);
      const file = /Backup written: (.+)/.exec(
        (await runCommand(backupCommand, [], { DATA_DIR: dataDir })).stdout,
      )![1]!;
      await handles.pop()!.close();

      const sleeper = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
      children.push(sleeper);
      const sleeperExited = new Promise((resolve) => sleeper.once('exit', resolve));
      fs.writeFileSync(path.join(dataDir, 'server.pid'), `${sleeper.pid}\n`);
      const refused = await runCommand(restoreCommand, [file], { DATA_DIR: dataDir });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`A Task Manager server (pid ${sleeper.pid}) is running`);
      expect(refused.stderr).toContain('stop it first');
      expect(fs.readdirSync(path.join(dataDir, 'backups'))).toHaveLength(1);

      // Killed without a chance to clean up: the pid file stays, but names nobody.
      sleeper.kill('SIGKILL');
      await sleeperExited;
      expect(fs.existsSync(path.join(dataDir, 'server.pid'))).toBe(true);
      const restored = await runCommand(restoreCommand, [file], { DATA_DIR: dataDir });
      expect(restored.stderr).toBe('');
      expect(restored.code).toBe(0);
    },
  );

  onlyOn('sqlite').it(
    'the server keeps DATA_DIR/server.pid while it runs, so restore waits for it to stop',
    async () => {
      const dataDir = tempDataDir();
      await liveDatabase(dataDir);
      const file = /Backup written: (.+)/.exec(
        (await runCommand(backupCommand, [], { DATA_DIR: dataDir })).stdout,
      )![1]!;
      await handles.pop()!.close();

      const server = startServer({ DATA_DIR: dataDir, PORT: '0' });
      servers.push(server);
      await waitForOutput(server, /listening on/, 45_000);
      const pid = Number(fs.readFileSync(path.join(dataDir, 'server.pid'), 'utf8'));
      // The server's own pid (the test may start it through a launcher process).
      expect(Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid).toBe(true);

      const refused = await runCommand(restoreCommand, [file], { DATA_DIR: dataDir });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`(pid ${pid}) is running`);

      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      expect(fs.existsSync(path.join(dataDir, 'server.pid'))).toBe(false);
      const restored = await runCommand(restoreCommand, [file], { DATA_DIR: dataDir });
      expect(restored.code).toBe(0);
    },
    60_000,
  );

  onlyOn('postgres').it(
    'on PostgreSQL both commands refuse and explain pg_dump and pg_restore',
    async () => {
      const dataDir = tempDataDir();
      const env = { DATA_DIR: dataDir, DATABASE_URL: POSTGRES_URL };
      const backup = await runCommand(backupCommand, [], env);
      expect(backup.code).toBe(1);
      expect(backup.stderr).toContain('DATABASE_URL is set');
      expect(backup.stderr).toContain('pg_dump --format=custom');
      const restore = await runCommand(restoreCommand, ['taskmanager.dump'], env);
      expect(restore.code).toBe(1);
      expect(restore.stderr).toContain('pg_restore --clean --if-exists');
      expect(fs.readdirSync(dataDir)).toEqual([]);
    },
  );
});
