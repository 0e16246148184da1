import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Runs test/fixtures/log-burst.ts; answers its exit code and the messages it logged, in order. */
function runBurst(
  how: 'exitAfterLogs' | 'plain',
): Promise<{ code: number | null; logged: string[] }> {
  const args = ['--conditions=source', '--import', 'tsx', 'test/fixtures/log-burst.ts', '20', '3'];
  if (how === 'plain') args.push('plain');
  const child = spawn(process.execPath, args, {
    cwd: apiDir,
    env: { PATH: process.env.PATH ?? '', UV_THREADPOOL_SIZE: '1' },
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  // 'close', not 'exit': every byte of its stdout has been read by then.
  return new Promise((resolve) =>
    child.on('close', (code) => {
      const logged = output
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const entry = JSON.parse(line) as { msg: string; line?: number };
          return entry.line === undefined ? entry.msg : String(entry.line);
        });
      resolve({ code, logged });
    }),
  );
}

const inOrder = [...Array.from({ length: 20 }, (_, line) => String(line)), 'last'];

describe('exitAfterLogs', { timeout: 30_000 }, () => {
  it('exits with its code once every line logged before it is out, in order', async () => {
    const { code, logged } = await runBurst('exitAfterLogs');
    expect(code).toBe(3);
    expect(logged).toEqual(inOrder);
  });

  it('is needed: a plain process.exit writes the last line before one still in flight', async () => {
    const { code, logged } = await runBurst('plain');
    expect(code).toBe(3);
    expect(logged).not.toEqual(inOrder);
    expect(logged.at(-1)).not.toBe('last');
  });
});
