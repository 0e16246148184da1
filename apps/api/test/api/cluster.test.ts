import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseEnv } from '../../src/config.js';
import { PID_FILE_NAME } from '../../src/pid-file.js';
import { createPostgresDatabase } from '../helpers/databases.js';
import { openEventStream } from '../helpers/event-stream.js';
import { buildTask } from '../helpers/factories.js';
import {
  stopAfterEachTest,
  serverUrl,
  startServer,
  tempDir,
  waitForOutput,
  type ServerProcess,
} from '../helpers/server-process.js';
import { onlyOn } from '../helpers/only-on.js';
import { ENGINE } from '../helpers/test-app.js';

const { running, cleanups } = stopAfterEachTest();

interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any endpoint's answer, read field by field
  body: any;
}

/**
 * One request on a connection of its own (no keep-alive agent): the primary hands each new
 * connection to the next worker, so consecutive calls go to different workers.
 */
function call(
  base: string,
  method: string,
  urlPath: string,
  { token, body }: { token?: string; body?: unknown } = {},
): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}${urlPath}`,
      {
        method,
        agent: false,
        headers: {
          ...(payload !== undefined && { 'content-type': 'application/json' }),
          ...(token && { authorization: `Bearer ${token}` }),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** The worker processes of a primary: its children running the server (not tsx's esbuild). */
function workerPids(primary: number): number[] {
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        // Field 4 of /proc/<pid>/stat is the parent; the name in field 2 may hold spaces.
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        return parent === primary && cmdline.includes('server.ts');
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number)
    .sort((a, b) => a - b);
}

/** The pids that logged a completed request: which processes actually answered. */
function answeringPids(server: ServerProcess): Set<number> {
  const pids = new Set<number>();
  for (const line of server.output().split('\n')) {
    if (!line.includes('"request completed"')) continue;
    pids.add((JSON.parse(line) as { pid: number }).pid);
  }
  return pids;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  ms = 30_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// Checks that do not depend on the engine run in the SQLite pass only.
const CHECKED_ONCE = 'the same on both engines: checked in the SQLite pass';

const count = (text: string, needle: string) => text.split(needle).length - 1;

describe(`WEB_CONCURRENCY=2: a primary and two workers (${ENGINE})`, { timeout: 90_000 }, () => {
  onlyOn('sqlite', CHECKED_ONCE).it(
    'WEB_CONCURRENCY takes 1 to 64 or auto, and refuses anything else',
    () => {
      expect(parseEnv({}).WEB_CONCURRENCY).toBe(1);
      expect(parseEnv({ WEB_CONCURRENCY: '4' }).WEB_CONCURRENCY).toBe(4);
      expect(parseEnv({ WEB_CONCURRENCY: 'auto' }).WEB_CONCURRENCY).toBe(
        Math.min(os.availableParallelism(), 64),
      );
      for (const bad of ['0', '65', 'two', '1.5', '-2']) {
        expect(() => parseEnv({ WEB_CONCURRENCY: bad }), bad).toThrow(ConfigError);
      }
    },
  );

  onlyOn('sqlite', CHECKED_ONCE).it(
    'gives up with exit 1 when the workers keep dying right after start',
    async () => {
      // Every worker fails to listen on a port someone else holds.
      const taken = net.createServer();
      await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
      cleanups.push(() => new Promise((resolve) => taken.close(() => resolve())));
      const { port } = taken.address() as net.AddressInfo;
      const server = startServer({ DATA_DIR: tempDir(), PORT: String(port), WEB_CONCURRENCY: '2' });
      running.push(server);
      expect(await server.exited).toBe(1);
      expect(server.output()).toContain('worker died unexpectedly; starting a replacement');
      expect(server.output()).toMatch(/workers in a row died right after start; giving up/);
      expect(server.output()).not.toContain('listening on');
    },
  );

  it('starts once, serves from both workers, replaces a killed one, and stops on SIGTERM', async () => {
    const dataDir = tempDir();
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      PORT: '0',
      WEB_CONCURRENCY: '2',
      BCRYPT_COST: '4',
      AUTH_RATE_LIMIT: '10000',
    };
    if (ENGINE === 'postgres') {
      const database = await createPostgresDatabase();
      cleanups.push(database.drop);
      env.DATABASE_URL = database.url;
    }
    const server = startServer(env);
    running.push(server);
    const primary = server.child.pid!;
    const url = await serverUrl(server);

    // The start lines come once, from the primary, which migrated and made the secrets.
    const [, inviteToken] = await waitForOutput(server, /Admin invite token[^:]*: (\d{6})/);
    const output = server.output();
    for (const line of [
      'listening on',
      'Admin invite token',
      'database ready',
      'database migrated',
    ]) {
      expect(count(output, line), line).toBe(1);
    }
    expect(output).toContain('rate limits are counted per worker; set REDIS_URL to share them');
    if (ENGINE === 'sqlite') {
      expect(fs.readFileSync(path.join(dataDir, PID_FILE_NAME), 'utf8').trim()).toBe(
        String(primary),
      );
    }
    const firstWorkers = workerPids(primary);
    expect(firstWorkers).toHaveLength(2);

    // Each call is a new connection, so these alternate between the workers: what one writes
    // with a token it signed, the other reads with that token.
    const account = { email: 'admin@example.com', password: 'a-long-password' };
    const registered = await call(url, 'POST', '/api/auth/register', {
      body: { name: 'Admin', ...account, adminInviteToken: inviteToken },
    });
    expect(registered.status).toBe(201);
    expect(registered.body.role).toBe('admin');
    const login = await call(url, 'POST', '/api/auth/login', { body: account });
    expect(login.status).toBe(200);
    const token = login.body.token as string;
    const created = await call(url, 'POST', '/api/tasks', {
      token,
      body: {
        title: 'Written by one worker',
        description: 'Read by the other',
        dueDate: '2030-01-15',
        assignedTo: [registered.body._id],
        todoChecklist: [{ text: 'Check it' }],
      },
    });
    expect(created, JSON.stringify(created.body)).toMatchObject({ status: 201 });
    const taskId = created.body.task._id as string;
    // Writes at once from both workers: each tick is a transaction that reads, then writes. On
    // SQLite a deferred transaction failed with SQLITE_BUSY (a 500) when the other process wrote
    // between its read and its write; every tick must land.
    const itemId = created.body.task.todoChecklist[0]._id as string;
    const ticks = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        call(url, 'PATCH', `/api/tasks/${taskId}/todo/${itemId}`, {
          token,
          body: { completed: i % 2 === 0 },
        }),
      ),
    );
    expect(ticks.map((tick) => tick.status)).toEqual(ticks.map(() => 200));
    for (let i = 0; i < 4; i++) {
      const read = await call(url, 'GET', `/api/tasks/${taskId}`, { token });
      expect(read.status).toBe(200);
      expect(read.body.title).toBe('Written by one worker');
    }
    expect([...answeringPids(server)].sort((a, b) => a - b)).toEqual(firstWorkers);

    // A worker killed outright is replaced; requests go on being answered meanwhile.
    const [victim, survivor] = firstWorkers as [number, number];
    process.kill(victim, 'SIGKILL');
    await waitForOutput(server, /worker died unexpectedly; starting a replacement/);
    for (let i = 0; i < 3; i++) {
      expect((await call(url, 'GET', `/api/tasks/${taskId}`, { token })).status).toBe(200);
    }
    const replacement = await until('a replacement worker', () => {
      const pids = workerPids(primary);
      const fresh = pids.find((pid) => pid !== survivor && pid !== victim);
      return pids.length === 2 && fresh;
    });
    // It takes requests once it listens: some call gets answered by it.
    await until('the replacement to answer', async () => {
      expect((await call(url, 'GET', `/api/tasks/${taskId}`, { token })).status).toBe(200);
      return answeringPids(server).has(replacement);
    });

    // SIGTERM to the primary stops every worker gracefully, then the primary.
    const workers = workerPids(primary);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(count(server.output(), '"msg":"stopped"')).toBe(3); // two workers and the primary
    expect(workers.filter(isAlive)).toEqual([]);
    expect(fs.existsSync(path.join(dataDir, PID_FILE_NAME))).toBe(false);
  });

  it('an event written through one worker reaches the streams of every worker', async () => {
    const env: Record<string, string> = {
      DATA_DIR: tempDir(),
      PORT: '0',
      WEB_CONCURRENCY: '2',
      BCRYPT_COST: '4',
      AUTH_RATE_LIMIT: '10000',
      ADMIN_INVITE_TOKEN: '975312',
    };
    if (ENGINE === 'postgres') {
      const database = await createPostgresDatabase();
      cleanups.push(database.drop);
      env.DATABASE_URL = database.url;
    }
    const server = startServer(env);
    running.push(server);
    const url = await serverUrl(server);
    const registered = await call(url, 'POST', '/api/auth/register', {
      body: {
        name: 'Admin',
        email: 'live@example.com',
        password: 'a-long-password',
        adminInviteToken: '975312',
      },
    });
    expect(registered.status).toBe(201);
    const token = registered.body.token as string;

    // Each stream is a connection of its own, and the primary deals connections to the workers
    // in turn: four streams are spread over both.
    const streams = [];
    for (let i = 0; i < 4; i++) {
      const stream = await openEventStream(`${url}/api/events`, {
        Authorization: `Bearer ${token}`,
      });
      expect(stream.status).toBe(200);
      await stream.waitFor((event) => event.event === 'ready');
      streams.push(stream);
    }
    try {
      // Per round, the slowest of the four streams (one on the other worker at least).
      const slowest: number[] = [];
      for (let round = 0; round < 8; round++) {
        // A new connection too, so the writes come through either worker.
        const created = await call(url, 'POST', '/api/tasks', {
          token,
          body: buildTask([registered.body._id]),
        });
        const answeredAt = performance.now();
        expect(created.status).toBe(201);
        const taskId = created.body.task._id as string;
        let delay = 0;
        for (const stream of streams) {
          const event = await stream.waitFor(
            (received) =>
              received.event === 'task.created' && JSON.parse(received.data).taskId === taskId,
            5000,
          );
          delay = Math.max(delay, event.at - answeredAt);
        }
        slowest.push(delay);
      }
      const mean = slowest.reduce((sum, ms) => sum + ms, 0) / slowest.length;
      console.log(`live event delay across cluster workers (${ENGINE}), ms:`, {
        slowestPerRound: slowest.map(Math.round),
        mean: Math.round(mean),
      });
      expect(Math.max(...slowest)).toBeLessThan(2000);
      // Woken at once (relayed by the primary, or NOTIFY): the 1 s safety poll alone would
      // average about 500 ms.
      expect(mean).toBeLessThan(300);
    } finally {
      for (const stream of streams) stream.close();
    }
  });
});
