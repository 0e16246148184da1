import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { createPostgresDatabase } from '../helpers/databases.js';
import { openEventStream } from '../helpers/event-stream.js';
import {
  stopAfterEachTest,
  serverUrl,
  startServer,
  tempDir,
  waitForOutput,
  type ServerProcess,
} from '../helpers/server-process.js';
import { ENGINE } from '../helpers/test-app.js';

const { running, cleanups } = stopAfterEachTest();

/** A real server on the engine under test (a fresh database either way). */
async function start(): Promise<{ server: ServerProcess; url: string; port: number }> {
  const env: Record<string, string> = {
    DATA_DIR: tempDir(),
    PORT: '0',
    BCRYPT_COST: '4',
    ADMIN_INVITE_TOKEN: '246810',
    JWT_SECRET: 'shutdown-test-secret-0123456789abcdef',
  };
  if (ENGINE === 'postgres') {
    const database = await createPostgresDatabase();
    cleanups.push(database.drop);
    env.DATABASE_URL = database.url;
  }
  const server = startServer(env);
  running.push(server);
  const url = await serverUrl(server);
  return { server, url, port: Number(new URL(url).port) };
}

/** A raw TCP connection whose received bytes can be awaited piece by piece. */
async function connect(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let received = '';
  socket.on('data', (chunk) => (received += chunk));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const waitFor = async (text: string) => {
    const deadline = Date.now() + 10_000;
    while (!received.includes(text)) {
      if (Date.now() > deadline) throw new Error(`never received ${text}; got:\n${received}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  return { socket, received: () => received, waitFor, closed };
}

/** Resolves with the error code of a refused connection; fails if the connection is accepted. */
function connectionError(port: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      reject(new Error('a new connection was accepted during shutdown'));
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code));
  });
}

// Each test starts a real process: slow on a busy machine, so more time than the default.
describe(`graceful shutdown of the server process (${ENGINE})`, { timeout: 60_000 }, () => {
  it('finishes a request in flight at SIGTERM with its normal answer, refuses new connections, exits 0', async () => {
    const { server, url, port } = await start();
    const account = { email: 'inflight@example.com', password: 'a-long-password' };
    const registered = await fetch(`${url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'In Flight', ...account }),
    });
    expect(registered.status).toBe(201);

    // Headers first; "100 Continue" proves the server has the request and waits for its body.
    const body = JSON.stringify(account);
    const half = Math.floor(body.length / 2);
    const client = await connect(port);
    client.socket.write(
      'POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n`,
    );
    await client.waitFor('HTTP/1.1 100 Continue');
    client.socket.write(body.slice(0, half));

    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    await waitForOutput(server, /"inFlight":1,"msg":"shutting down/);

    // The process still runs (it waits for our request), yet takes no new connection.
    expect(server.child.exitCode).toBeNull();
    expect(await connectionError(port)).toBe('ECONNREFUSED');

    client.socket.write(body.slice(half));
    await client.closed;
    const [head = '', answer = ''] = client.received().split('\r\n\r\n').slice(1);
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    // Told to let go, so the server need not wait out a keep-alive timeout.
    expect(head).toMatch(/\r\nConnection: close(\r\n|$)/i);
    expect(JSON.parse(answer)).toMatchObject({ email: account.email, token: expect.any(String) });

    expect(await server.exited).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan(5_000);
    const log = server.output();
    const steps = ['shutting down', 'all connections closed', 'database closed', 'stopped'];
    const positions = steps.map((step) => log.indexOf(`"msg":"${step}`));
    expect(
      positions.every((position) => position >= 0),
      log,
    ).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(log).not.toContain('grace period');
  });

  it('stops at once on SIGINT, closing an idle keep-alive connection', async () => {
    const { server, port } = await start();
    const client = await connect(port);
    client.socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await client.waitFor('{"status":"ok"}');
    expect(client.received()).toMatch(/Connection: keep-alive/i);

    const signalledAt = Date.now();
    server.child.kill('SIGINT');
    await client.closed;
    expect(await server.exited).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan(3_000);
    expect(server.output()).toContain('"signal":"SIGINT"');
    expect(server.output()).toContain('"msg":"stopped"');
  });

  it('ends open event streams at once, so they neither hold up the stop nor hang', async () => {
    const { server, url } = await start();
    const registered = await fetch(`${url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Streaming',
        email: 'stream@example.com',
        password: 'a-long-password',
      }),
    });
    const { token } = (await registered.json()) as { token: string };
    const streams = await Promise.all(
      [1, 2, 3].map(() =>
        openEventStream(`${url}/api/events`, { Authorization: `Bearer ${token}` }),
      ),
    );
    for (const stream of streams) await stream.waitFor((event) => event.event === 'ready');

    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    // Ended by the server (the client reconnects, to another process), not cut by a timeout.
    await Promise.all(streams.map((stream) => stream.ended));
    expect(Date.now() - signalledAt).toBeLessThan(3_000);
    expect(await server.exited).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan(5_000);
    expect(server.output()).not.toContain('grace period');
  });
});
