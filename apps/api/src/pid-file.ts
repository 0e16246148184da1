import fs from 'node:fs';
import path from 'node:path';
import { ensurePrivateDir } from './data-files.js';

/**
 * DATA_DIR/server.pid: written by a server running on the SQLite file in DATA_DIR and removed
 * when it exits, so that `pnpm restore` can refuse to swap the file under a live server. A server
 * killed with SIGKILL leaves the file behind; the pid in it is then no longer alive and is ignored.
 */
export const PID_FILE_NAME = 'server.pid';

export function pidFilePath(dataDir: string): string {
  return path.join(dataDir, PID_FILE_NAME);
}

/** Records this process as the server on DATA_DIR until it exits (however it exits). */
export function writePidFile(dataDir: string): void {
  const file = pidFilePath(dataDir);
  ensurePrivateDir(dataDir);
  fs.writeFileSync(file, `${process.pid}\n`);
  process.once('exit', () => {
    // Only our own file: a second server on the same folder may have replaced it.
    try {
      if (readPid(file) === process.pid) fs.rmSync(file, { force: true });
    } catch {
      // Exiting anyway; a stale file is ignored by the next reader.
    }
  });
}

/**
 * The pid of a live server on DATA_DIR, or undefined when there is no pid file, when its process
 * is gone, or when it names the caller itself (in a container the CLI may run as the pid a
 * stopped server had).
 */
export function liveServerPid(dataDir: string): number | undefined {
  const pid = readPid(pidFilePath(dataDir));
  if (pid === undefined || pid === process.pid) return undefined;
  return isAlive(pid) ? pid : undefined;
}

function readPid(file: string): number | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const pid = Number(text.trim());
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

function isAlive(pid: number): boolean {
  try {
    // Signal 0 only asks whether the process exists.
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
