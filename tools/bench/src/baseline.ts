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
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/baseline-server.ts'], {
    cwd: benchDir,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', BODY_BYTES: String(bodyBytes) },
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
    child.on('exit', (code) =>
      reject(new Error(`the baseline server exited (${code}):\n${output}`)),
    );
  });
}
