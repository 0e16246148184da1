import fs from 'node:fs';
import path from 'node:path';

/**
 * DATA_DIR holds the SQLite database (password hashes, every task) and the generated JWT
 * secret: readable by the account the server runs as, and by no one else.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** The files SQLite keeps beside a database: its write-ahead log, shared memory and journal. */
export const SQLITE_SIDECARS = ['-wal', '-shm', '-journal'] as const;

/** Windows has no owner/group/other modes: chmod there only sets the read-only flag. */
const HAS_MODES = process.platform !== 'win32';

/** Creates `dir` (and missing parents) owner-only; an existing folder is left as it is. */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/**
 * Makes each existing file among `files` owner-only when group or others may read or write it,
 * and returns the ones it changed (for the start-up log).
 */
export function tightenFiles(files: string[]): string[] {
  if (!HAS_MODES) return [];
  const tightened: string[] = [];
  for (const file of files) {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat?.isFile() || (stat.mode & 0o077) === 0) continue;
    fs.chmodSync(file, PRIVATE_FILE_MODE);
    tightened.push(file);
  }
  return tightened;
}

/**
 * Before SQLite opens `file`: its folder exists (created owner-only), the file exists owner-only
 * (SQLite would create it 0644, and gives its -wal and -shm files the mode of the database
 * file), and the files an older version left readable by others are tightened. Returns those.
 */
export function prepareSqliteFiles(file: string): string[] {
  ensurePrivateDir(path.dirname(file));
  try {
    // An empty file is a valid, empty SQLite database.
    fs.closeSync(fs.openSync(file, 'wx', PRIVATE_FILE_MODE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return tightenFiles([file, ...SQLITE_SIDECARS.map((suffix) => file + suffix)]);
}
