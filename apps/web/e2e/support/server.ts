import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { apiServerEntry, webIndexHtml } from './paths.js';

/** The invite token every e2e server is started with: signing up with it makes an admin. */
export const ADMIN_INVITE_TOKEN = '482913';

export interface TestServer {
  /** http://127.0.0.1:PORT, serving the API under /api and the built web app elsewhere. */
  baseURL: string;
  inviteToken: string;
  /** Error-level (pino level >= 50) log lines the server wrote since the last call. */
  takeErrorLogs(): string[];
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

function assertBuilt() {
  const missing = [apiServerEntry, webIndexHtml].filter((file) => !fs.existsSync(file));
  if (missing.length > 0) {
    throw new Error(
      `The e2e tests run the built app, and these files are missing:\n  ${missing.join('\n  ')}\n` +
        'Build first: npx -y pnpm@10 build (or run `pnpm test`, which builds what it needs).',
    );
  }
}

/**
 * Starts the real API process (`node apps/api/dist/server.js`) on a free port with a fresh SQLite
 * folder, and waits until it answers. Nothing is mocked: the browser talks to this server.
 */
export async function startServer(): Promise<TestServer> {
  assertBuilt();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tm-e2e-'));
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, [apiServerEntry], {
    cwd: dataDir,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      DATA_DIR: dataDir,
      ADMIN_INVITE_TOKEN,
      JWT_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'warn',
      // Every sign-in of a test file comes from one IP; the default of 10 a minute is too few.
      AUTH_RATE_LIMIT: '10000',
      // The lowest cost the server accepts: hashing speed is not what these tests are about.
      BCRYPT_COST: '4',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let errorLines: string[] = [];
  const collect = (chunk: Buffer) => {
    const text = chunk.toString();
    output += text;
    for (const line of text.split('\n')) {
      try {
        const entry = JSON.parse(line) as { level?: number };
        if ((entry.level ?? 0) >= 50) errorLines.push(line);
      } catch {
        // Not a log line (e.g. a crash on stderr): it shows up in `output` on a failed start.
        if (line.trim() && /error/i.test(line)) errorLines.push(line);
      }
    }
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`The API server exited with ${child.exitCode} at start:\n${output}`);
    }
    try {
      // Unauthenticated: any answer at all means the server is up.
      const res = await fetch(`${baseURL}/api/auth/profile`);
      if (res.status === 401) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The API server did not answer on ${baseURL} within 30 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    baseURL,
    inviteToken: ADMIN_INVITE_TOKEN,
    takeErrorLogs() {
      const lines = errorLines;
      errorLines = [];
      return lines;
    },
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(killer);
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
