import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface BaselineServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts baseline-server.ts in a process of its own, as the API runs in one, so that both share
 * the machine with the load generator in the same way.
 */
export function startBaseline(bodyBytes: number): Promise<BaselineServer> {
  return startScript('src/baseline-server.ts', { BODY_BYTES: String(bodyBytes) });
}

/**
 * Starts floor-server.ts (the task page on plain node:http and raw SQLite statements) on the
 * benchmark's SQLite file, accepting the API's tokens (`jwtSecret`).
 */
export function startFloor(sqliteFile: string, jwtSecret: string): Promise<BaselineServer> {
  return startScript('src/floor-server.ts', { SQLITE_FILE: sqliteFile, JWT_SECRET: jwtSecret });
}

function startScript(script: string, env: Record<string, string>): Promise<BaselineServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: benchDir,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        resolve({
          url: match[1]!,
          pid: child.pid!,
          stop: async () => {
            if (child.exitCode === null) child.kill('SIGTERM');
            await exited;
          },
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`${script} exited (${code}):\n${output}`)));
  });
}
