import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';

const apiDir = path.resolve(import.meta.dirname, '../..');

export interface ServerProcess {
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr. */
  output: () => string;
  /** Its exit code (null when killed by a signal), once all it printed has been read. */
  exited: Promise<number | null>;
}

/**
 * Runs the real entry point, src/server.ts, as its own process. Node loads TypeScript through
 * tsx's hook (`--import tsx`) rather than the tsx command: that command is a second process
 * which relays signals and kills the server if it does not confirm one within 30 ms.
 */
export function startServer(env: Record<string, string>): ServerProcess {
  return startScript('src/server.ts', [], { LOG_LEVEL: 'info', ...env });
}

/** Runs a TypeScript file of the API (a path from apps/api) as its own process, as startServer. */
export function startScript(
  script: string,
  args: string[],
  env: Record<string, string>,
): ServerProcess {
  let output = '';
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', script, ...args],
    { cwd: apiDir, env: { PATH: process.env.PATH ?? '', ...env } },
  );
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  // 'close', not 'exit': at 'exit' the last lines it printed may still be unread in the pipe.
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => resolve(code)),
  );
  return { child, output: () => output, exited };
}

/** Waits until the output matches `pattern`; fails with the output when it never does. */
export async function waitForOutput(
  server: ServerProcess,
  pattern: RegExp,
  ms = 45_000,
): Promise<RegExpMatchArray> {
  const deadline = Date.now() + ms;
  for (;;) {
    const match = server.output().match(pattern);
    if (match) return match;
    if (Date.now() > deadline || server.child.exitCode !== null || server.child.signalCode) {
      throw new Error(`never saw ${pattern} in:\n${server.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The base URL of a started server, once it listens. */
export async function serverUrl(server: ServerProcess): Promise<string> {
  const [, port] = await waitForOutput(server, /listening on http:\/\/localhost:(\d+)/);
  return `http://127.0.0.1:${port}`;
}

/** Kills whatever is still running (for afterEach). */
export async function killAll(servers: ServerProcess[]): Promise<void> {
  for (const server of servers.splice(0)) {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
    await server.exited;
  }
}

export function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'tm-server-'));
}

/**
 * The servers a test file starts and the clean-ups it needs (databases to drop): after each test
 * the servers are killed, then the clean-ups run.
 */
export function stopAfterEachTest(): {
  running: ServerProcess[];
  cleanups: Array<() => Promise<void>>;
} {
  const running: ServerProcess[] = [];
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await killAll(running);
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  return { running, cleanups };
}
