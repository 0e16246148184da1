import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
// Kysely's bookkeeping table: every Task Manager database has it, other SQLite files do not.
import { DEFAULT_MIGRATION_TABLE as MIGRATION_TABLE } from 'kysely';
import { sqliteFileOf, unknownMigrations } from '../db/database.js';
import { liveServerPid, pidFilePath } from '../pid-file.js';
import { CliError, parseCliEnv, resolveUserPath, type CliCommand } from './support.js';

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

export const BACKUP_USAGE = `Usage: pnpm backup [FILE or FOLDER]

Writes a consistent copy of the SQLite database in DATA_DIR, safe while the server runs, to
DATA_DIR/backups/taskmanager-<time>.db, or to FILE, or into FOLDER. Prints where it went.`;

export const RESTORE_USAGE = `Usage: pnpm restore FILE

Replaces the SQLite database in DATA_DIR with the backup FILE. Stop the server first. The
database it replaces is kept in DATA_DIR/backups/taskmanager-before-restore-<time>.db.`;

export function backupsDir(dataDir: string): string {
  return path.resolve(dataDir, 'backups');
}

/** 2026-11-23T14-05-09.123Z: sortable, and without the colons some file systems refuse. */
function fileTimestamp(date = new Date()): string {
  return date.toISOString().replaceAll(':', '-');
}

/**
 * A consistent copy of a SQLite database, safe while other connections (another process) write:
 * VACUUM INTO reads the whole database, WAL included, in one read transaction, so writers
 * neither block it nor tear the copy (a file copy of a live database can be torn, and misses
 * whatever is still in the -wal file). The copy gets its name only once complete and checked,
 * and never replaces an existing file.
 */
export function snapshotSqlite(source: string, target: string): void {
  fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
  if (fs.existsSync(target)) throw new CliError(`${target} already exists: choose another name.`);
  const partial = `${target}.partial-${randomBytes(4).toString('hex')}`;
  try {
    const db = new SQLite(source, { readonly: true, fileMustExist: true });
    try {
      db.pragma('busy_timeout = 5000');
      db.prepare('VACUUM INTO ?').run(partial);
    } finally {
      db.close();
    }
    const problems = integrityProblems(partial);
    if (problems.length > 0) {
      throw new CliError(
        `The copy of ${source} failed its integrity check: ${problems.join('; ')}`,
      );
    }
    // It holds password hashes: readable by the owner only.
    fs.chmodSync(partial, 0o600);
    fsync(partial);
    // link + unlink: unlike rename, fails instead of overwriting a file created meanwhile.
    fs.linkSync(partial, target);
    fsyncFolder(path.dirname(target));
  } finally {
    fs.rmSync(partial, { force: true });
  }
}

export interface BackupSummary {
  users: number;
  tasks: number;
  migrations: number;
}

/**
 * Checks that `file` is a Task Manager database this version can open: a SQLite file that
 * passes integrity_check, with the migrations table, and no migration from a newer version.
 */
export function inspectBackup(file: string): BackupSummary {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    throw new CliError(`There is no file at ${file}.`);
  }
  if (!stat.isFile()) throw new CliError(`${file} is not a file.`);
  const header = Buffer.alloc(SQLITE_HEADER.length);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, header, 0, header.length, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (!header.equals(SQLITE_HEADER)) {
    throw new CliError(`${file} is not a SQLite database, so not a Task Manager backup.`);
  }
  const problems = integrityProblems(file);
  if (problems.length > 0) {
    throw new CliError(`${file} is damaged (integrity_check: ${problems.join('; ')}).`);
  }
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const hasTable = (name: string) =>
      db.prepare(`select 1 from sqlite_master where type = 'table' and name = ?`).get(name) !==
      undefined;
    if (!hasTable(MIGRATION_TABLE) || !hasTable('users') || !hasTable('tasks')) {
      throw new CliError(
        `${file} is a SQLite database but not a Task Manager one (it has no ${MIGRATION_TABLE} table).`,
      );
    }
    const applied = db
      .prepare(`select name from ${MIGRATION_TABLE} order by name`)
      .pluck()
      .all() as string[];
    const unknown = unknownMigrations(applied);
    if (unknown.length > 0) {
      throw new CliError(
        `${file} comes from a newer version of Task Manager (migrations this version does not ` +
          `know: ${unknown.join(', ')}). Upgrade Task Manager first, then restore.`,
      );
    }
    const count = (table: string) =>
      Number(db.prepare(`select count(*) from ${table}`).pluck().get());
    return { users: count('users'), tasks: count('tasks'), migrations: applied.length };
  } finally {
    db.close();
  }
}

function integrityProblems(file: string): string[] {
  let db: SQLite.Database | undefined;
  try {
    db = new SQLite(file, { readonly: true, fileMustExist: true });
    const rows = db.pragma('integrity_check', { simple: false }) as Array<{
      integrity_check: string;
    }>;
    const messages = rows.map((row) => row.integrity_check);
    return messages.length === 1 && messages[0] === 'ok' ? [] : messages.slice(0, 5);
  } catch (error) {
    return [error instanceof Error ? error.message : String(error)];
  } finally {
    db?.close();
  }
}

function fsync(file: string): void {
  const fd = fs.openSync(file, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Makes a rename or link durable. Some platforms cannot fsync a folder; the rename is done. */
function fsyncFolder(folder: string): void {
  try {
    fsync(folder);
  } catch {
    // Not supported here (Windows): nothing more to do.
  }
}

function refuseWhileServing(dataDir: string): void {
  const pid = liveServerPid(dataDir);
  if (pid !== undefined) {
    throw new CliError(
      `A Task Manager server (pid ${pid}) is running on ${dataDir}: stop it first, then restore. ` +
        `(If no server runs there, delete the stale ${pidFilePath(dataDir)}.)`,
    );
  }
}

/**
 * Before a new main file takes the old one's name, the old one's -wal, -shm and -journal files
 * must go: SQLite would otherwise replay them into the new file and corrupt it. A checkpoint
 * first folds the WAL into the old file (already copied); then whatever is left is removed.
 */
function retireSidecars(live: string): void {
  try {
    const db = new SQLite(live, { fileMustExist: true });
    try {
      db.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      db.close();
    }
  } catch {
    // A damaged database may not checkpoint; it has been copied, its sidecars go anyway.
  }
  for (const suffix of ['-wal', '-shm', '-journal']) fs.rmSync(live + suffix, { force: true });
}

/**
 * Keeps the database about to be replaced. A damaged one (the usual reason to restore) cannot be
 * copied with VACUUM INTO; no server writes it now, so its files are copied as they are.
 */
function keepReplaced(live: string, folder: string): string {
  const saved = path.join(folder, `taskmanager-before-restore-${fileTimestamp()}.db`);
  try {
    snapshotSqlite(live, saved);
    return saved;
  } catch {
    for (const suffix of ['', '-wal']) {
      if (fs.existsSync(live + suffix)) {
        fs.copyFileSync(live + suffix, saved + suffix, fs.constants.COPYFILE_EXCL);
        fs.chmodSync(saved + suffix, 0o600);
      }
    }
    return `${saved} (copied as it was: it fails SQLite's integrity check)`;
  }
}

export function postgresAdvice(command: 'backup' | 'restore'): string {
  return `DATABASE_URL is set: the data is in PostgreSQL, and \`pnpm ${command}\` only handles the SQLite
file in DATA_DIR. Use PostgreSQL's own tools:
  back up:  pg_dump --format=custom --file=taskmanager.dump "$DATABASE_URL"
  restore:  stop the app, then
            pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" taskmanager.dump
With the Docker Compose setup from the README:
  docker compose exec -T db pg_dump -U taskmanager -Fc taskmanager > taskmanager.dump
  docker compose stop app
  docker compose exec -T db pg_restore -U taskmanager -d taskmanager --clean --if-exists < taskmanager.dump
  docker compose start app`;
}

function parseCommandArgs(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: { help: { type: 'boolean', short: 'h' } },
  });
}

export const backupCommand: CliCommand = async (args, env, out) => {
  const { values, positionals } = parseCommandArgs(args);
  if (values.help) return out.info(BACKUP_USAGE);
  if (positionals.length > 1) throw new CliError(BACKUP_USAGE);
  const config = parseCliEnv(env);
  if (config.DATABASE_URL) throw new CliError(postgresAdvice('backup'));
  const source = sqliteFileOf(config);
  if (!fs.existsSync(source)) {
    throw new CliError(`There is no database at ${source} (DATA_DIR): nothing to back up.`);
  }
  const fileName = `taskmanager-${fileTimestamp()}.db`;
  let target = path.join(backupsDir(config.DATA_DIR), fileName);
  if (positionals[0] !== undefined) {
    const given = resolveUserPath(positionals[0], env);
    target = fs.statSync(given, { throwIfNoEntry: false })?.isDirectory()
      ? path.join(given, fileName)
      : given;
  }
  snapshotSqlite(source, target);
  out.info(`Backup written: ${target}`);
};

export const restoreCommand: CliCommand = async (args, env, out) => {
  const { values, positionals } = parseCommandArgs(args);
  if (values.help) return out.info(RESTORE_USAGE);
  if (positionals.length !== 1) throw new CliError(RESTORE_USAGE);
  const config = parseCliEnv(env);
  if (config.DATABASE_URL) throw new CliError(postgresAdvice('restore'));
  const dataDir = path.resolve(config.DATA_DIR);
  const live = sqliteFileOf(config);
  const source = resolveUserPath(positionals[0]!, env);
  if (source === live) throw new CliError(`${source} is the database in use, not a backup.`);
  const summary = inspectBackup(source);
  refuseWhileServing(dataDir);

  // The backup is copied next to the live file first, so the final step is a rename on one disk.
  const incoming = `${live}.restore-${randomBytes(4).toString('hex')}`;
  try {
    snapshotSqlite(source, incoming);
    const saved = fs.existsSync(live) ? keepReplaced(live, backupsDir(dataDir)) : undefined;
    // Again, right before the swap: a server may have started while the copies were made.
    refuseWhileServing(dataDir);
    retireSidecars(live);
    fs.renameSync(incoming, live);
    fsyncFolder(dataDir);
    out.info(`Restored ${source} (${summary.users} users, ${summary.tasks} tasks)`);
    out.info(`  into ${live}`);
    if (saved) out.info(`The database it replaced is kept as ${saved}`);
    out.info('Start the server: it brings an older backup up to date with its migrations.');
  } finally {
    fs.rmSync(incoming, { force: true });
  }
};
