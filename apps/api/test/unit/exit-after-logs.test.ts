import { describe, expect, it } from 'vitest';
import { startScript } from '../helpers/server-process.js';

/** Runs test/fixtures/log-burst.ts; answers its exit code and the messages it logged, in order. */
async function runBurst(
  how: 'exitAfterLogs' | 'plain',
): Promise<{ code: number | null; logged: string[] }> {
  const args = ['20', '3', ...(how === 'plain' ? ['plain'] : [])];
  const burst = startScript('test/fixtures/log-burst.ts', args, { UV_THREADPOOL_SIZE: '1' });
  const code = await burst.exited;
  const logged = burst
    .output()
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const entry = JSON.parse(line) as { msg: string; line?: number };
      return entry.line === undefined ? entry.msg : String(entry.line);
    });
  return { code, logged };
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
