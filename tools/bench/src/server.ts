import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { apiDir } from './paths.js';

/** The built API entry point: benchmarks measure what `pnpm start` runs, never a dev build. */
export const builtApiEntry = path.join(apiDir, 'dist/server.js');

/** Stops with a clear message when the API has not been built (this package builds nothing). */
export function requireBuiltApi(): void {
  if (!fs.existsSync(builtApiEntry)) {
    console.error(
      `The API is not built: ${path.relative(process.cwd(), builtApiEntry)} is missing.`,
    );
    console.error('Run `pnpm build` first, then run this again.');
    process.exit(2);
  }
}

export interface BuiltServer {
  /** Base URL, e.g. http://127.0.0.1:41234 */
  url: string;
  pid: number;
  child: ChildProcess;
  /** The last 64 KB it printed, for diagnosis. */
  output(): string;
  /** Its exit code, or null when a signal ended it. */
  exited: Promise<number | null>;
  /** SIGTERM, then waits for the graceful shutdown (SIGKILL after `ms`). */
  stop(ms?: number): Promise<number | null>;
}

const OUTPUT_KEPT = 64 * 1024;

/**
 * Starts `node dist/server.js` on a free port with only the given environment (plus PATH), and
 * resolves once it listens. The process is node itself, so its pid is the server's, for
 * /proc/<pid>/status. Its output is drained continuously: a full pipe would block its logger.
 * With a LOG_LEVEL above info the listening line is not printed: give a PORT (see freePort), and
 * readiness is then seen by polling /api/health.
 */
export async function startBuiltServer(
  env: Record<string, string>,
  { timeoutMs = 60_000, logFile }: { timeoutMs?: number; logFile?: string } = {},
): Promise<BuiltServer> {
  requireBuiltApi();
  const child = spawn(process.execPath, ['--enable-source-maps', builtApiEntry], {
    cwd: apiDir,
    env: { PATH: process.env.PATH ?? '', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  // Everything it prints, when asked: the output kept in memory is only its tail.
  const log = logFile ? fs.createWriteStream(logFile) : undefined;
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-OUTPUT_KEPT);
    log?.write(chunk);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      log?.end();
      resolve(code);
    }),
  );

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      clearInterval(poll);
      child.kill('SIGKILL');
      reject(new Error(`the server did not start within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const fixedPort = env.PORT && env.PORT !== '0' ? env.PORT : undefined;
    const healthy = () =>
      fetch(`http://127.0.0.1:${fixedPort}/api/health`).then(
        (res) => res.ok,
        () => false,
      );
    let listening = false;
    const poll = setInterval(async () => {
      const match = /listening on http:\/\/localhost:(\d+)/.exec(output);
      const port = match?.[1] ?? (fixedPort && !listening && (await healthy()) && fixedPort);
      if (port && !listening) {
        listening = true;
        clearInterval(poll);
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${port}`);
      } else if (child.exitCode !== null) {
        clearInterval(poll);
        clearTimeout(timer);
        reject(new Error(`the server exited with code ${child.exitCode}:\n${output}`));
      }
    }, 50);
  });

  return {
    url,
    pid: child.pid!,
    child,
    output: () => output,
    exited,
    stop: async (ms = 20_000) => {
      if (child.exitCode !== null || child.signalCode) return exited;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), ms);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** A port nobody listens on right now, for a server that does not print the one it got. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** The resident memory of a process in bytes (VmRSS in /proc/<pid>/status), if it still runs. */
export function rssBytesOf(pid: number): number | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** CPU seconds a process has used so far (user + system, /proc/<pid>/stat), if it still runs. */
export function cpuSecondsOf(pid: number): number | undefined {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and
    // 13th, in clock ticks of 1/100 s on Linux.
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/** A new empty folder under the system's temp folder, for a server's DATA_DIR. */
export function tempDataDir(prefix = 'tm-bench-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}
