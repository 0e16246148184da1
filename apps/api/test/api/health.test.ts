import net from 'node:net';
import type { Kysely } from 'kysely';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages } from '@task-manager/shared';
import { createApp } from '../../src/app.js';
import { openDatabase } from '../../src/db/database.js';
import type { Database } from '../../src/db/tables.js';
import { openEmptyDatabase } from '../helpers/databases.js';
import { onlyOn } from '../helpers/only-on.js';
import { tempDir } from '../helpers/server-process.js';
import { createTestContext, ENGINE, testConfig, type TestContext } from '../helpers/test-app.js';

/** An app on `db`; `stopping` says whether its server is shutting down. */
function appOn(db: Kysely<Database>, stopping = () => false) {
  return request(
    createApp({
      db,
      // The tightest limit there is: probes must never meet it.
      config: { ...testConfig, authRateLimit: 1 },
      logger: pino({ level: 'silent' }),
      isShuttingDown: stopping,
    }),
  );
}

const unavailable = { message: apiMessages.databaseUnavailable, code: 'service_unavailable' };

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const start = Date.now();
  const result = await work();
  return { result, ms: Date.now() - start };
}

describe(`health and readiness (${ENGINE})`, () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('GET /api/health answers 200 {status: ok} without a token, never cached', async () => {
    const res = await appOn(ctx.db).get('/api/health').expect(200);
    expect(res.body).toEqual({ status: 'ok' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('GET /api/ready answers 200 {status: ready} when the database answers', async () => {
    const res = await appOn(ctx.db).get('/api/ready').expect(200);
    expect(res.body).toEqual({ status: 'ready' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('is not rate-limited, even with the lowest sign-in limit', async () => {
    const api = appOn(ctx.db);
    for (let i = 0; i < 15; i++) {
      await api.get('/api/health').expect(200);
      await api.get('/api/ready').expect(200);
    }
    // The limit itself is in force: a second sign-in attempt within the minute is refused.
    await api.post('/api/auth/login').send({ email: 'a@example.com', password: 'x' }).expect(401);
    await api.post('/api/auth/login').send({ email: 'a@example.com', password: 'x' }).expect(429);
  });

  it('answers 503 to /api/ready once the server is shutting down; /api/health stays 200', async () => {
    let stopping = false;
    const api = appOn(ctx.db, () => stopping);
    await api.get('/api/ready').expect(200);
    stopping = true;
    const res = await api.get('/api/ready').expect(503);
    expect(res.body).toEqual({ message: apiMessages.shuttingDown, code: expect.any(String) });
    await api.get('/api/health').expect(200);
  });

  it('answers 503 quickly when the database handle is closed; health does not touch it', async () => {
    const database = await openEmptyDatabase(tempDir());
    try {
      const api = appOn(database.handle.db);
      await api.get('/api/ready').expect(200);
      await database.handle.close();
      const { result, ms } = await timed(() => api.get('/api/ready').expect(503));
      expect(result.body).toEqual(unavailable);
      expect(ms).toBeLessThan(1000);
      const health = await api.get('/api/health').expect(200);
      expect(health.body).toEqual({ status: 'ok' });
    } finally {
      await database.drop();
    }
  });

  onlyOn('postgres').it('answers 503 quickly when PostgreSQL refuses connections', async () => {
    // Port 1 on this machine: nothing listens there, so the connection is refused at once.
    const handle = openDatabase({ engine: 'postgres', url: 'postgres://postgres@127.0.0.1:1/x' });
    try {
      const api = appOn(handle.db);
      const { result, ms } = await timed(() => api.get('/api/ready').expect(503));
      expect(result.body).toEqual(unavailable);
      expect(ms).toBeLessThan(1000);
    } finally {
      await handle.close();
    }
  });

  onlyOn('postgres').it(
    'answers 503 within about 2 s when the database accepts but never answers',
    async () => {
      // A server that takes the connection and then says nothing, like a hung database host.
      const sockets = new Set<net.Socket>();
      const blackHole = net.createServer((socket) => sockets.add(socket));
      await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
      const { port } = blackHole.address() as net.AddressInfo;
      const handle = openDatabase({
        engine: 'postgres',
        url: `postgres://postgres@127.0.0.1:${port}/x`,
      });
      try {
        const api = appOn(handle.db);
        const { result, ms } = await timed(() => api.get('/api/ready').expect(503));
        expect(result.body).toEqual(unavailable);
        expect(ms).toBeGreaterThanOrEqual(1900);
        expect(ms).toBeLessThan(3500);
        expect(sockets.size).toBeGreaterThan(0);
      } finally {
        for (const socket of sockets) socket.destroy();
        await new Promise((resolve) => blackHole.close(resolve));
        await handle.close();
      }
    },
  );
});
