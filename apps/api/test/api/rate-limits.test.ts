import { randomUUID } from 'node:crypto';
import net from 'node:net';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { pino, type Logger } from 'pino';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages } from '@task-manager/shared';
import { createApp } from '../../src/app.js';
import type { AppConfig } from '../../src/config.js';
import type { Database } from '../../src/db/tables.js';
import {
  ACCOUNT_FAILURES,
  createRateLimitRedis,
  INVITE_FAILURES,
  redisStores,
  type RateLimitStoreFactory,
} from '../../src/http/rate-limit.js';
import { buildUser } from '../helpers/factories.js';
import { connectRedis } from '../helpers/redis.js';
import { expectTooMany } from '../helpers/too-many.js';
import { onlyOn, onlyWhen } from '../helpers/only-on.js';
import {
  killAll,
  serverUrl,
  startServer,
  tempDir,
  waitForOutput,
  type ServerProcess,
} from '../helpers/server-process.js';
import {
  createTestContext,
  ENGINE,
  INVITE_TOKEN,
  testConfig,
  type TestContext,
} from '../helpers/test-app.js';

const silent = pino({ level: 'silent' });
const UPLOAD = '/api/auth/upload-image';

/** Keys of this test alone, so parallel runs (and the other database pass) never meet. */
const uniquePrefix = () => `test:rate-limit:${randomUUID()}:`;

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const stores = ['memory', 'redis'] as const;

describe.each(stores)(`rate limits counted in %s (${ENGINE})`, (storeKind) => {
  let ctx: TestContext;
  let redis: Redis | undefined;
  // Sharing is what Redis is for; keeping apart is what memory does.
  const redisOnly = onlyWhen(storeKind === 'redis', 'counts shared in Redis only');
  const memoryOnly = onlyWhen(storeKind === 'memory', 'counts kept in memory only');

  beforeAll(async () => {
    ctx = await createTestContext();
    if (storeKind === 'redis') redis = await connectRedis();
  });
  afterAll(async () => {
    await redis?.quit();
    await ctx.close();
  });

  /** Stores for one app; apps given the same `prefix` share their counts (Redis only). */
  function storesFor(prefix = uniquePrefix()): RateLimitStoreFactory | undefined {
    return redis ? redisStores(redis, silent, prefix) : undefined;
  }

  /** An app on the test database with its own counts (or those under `prefix`). */
  function appOn(
    db: Kysely<Database>,
    config: Partial<AppConfig> = {},
    rateLimitStores = storesFor(),
  ) {
    return request(
      createApp({ db, config: { ...testConfig, ...config }, logger: silent, rateLimitStores }),
    );
  }

  /** An app that believes X-Forwarded-For (one proxy), so a test can speak from many IPs. */
  const behindProxy = (config: Partial<AppConfig> = {}) =>
    appOn(ctx.db, { trustProxy: 1, ...config });
  let ipCounter = 0;
  const nextIp = () => `203.0.113.${(ipCounter++ % 250) + 1}`;

  async function signUpMember(api: ReturnType<typeof appOn>) {
    const user = buildUser();
    await api.post('/api/auth/register').send(user).expect(201);
    return user;
  }

  describe('per IP', () => {
    it('refuses the 4th sign-in a minute with 429, even with the right password', async () => {
      const api = appOn(ctx.db, { authRateLimit: 3 });
      const user = await signUpMember(api);
      const good = { email: user.email, password: user.password };
      await api.post('/api/auth/login').send(good).expect(200);
      await api
        .post('/api/auth/login')
        .send({ ...good, password: 'wrong-password' })
        .expect(401);
      const third = await api.post('/api/auth/login').send(good).expect(200);
      expect(third.headers['ratelimit']).toMatch(/^limit=3, remaining=0, reset=\d+$/);
      expectTooMany(await api.post('/api/auth/login').send(good), 60);
    });

    it('refuses the 4th sign-up a minute with 429 and creates no account', async () => {
      const api = appOn(ctx.db, { authRateLimit: 3 });
      for (let i = 0; i < 3; i++) await signUpMember(api);
      const fourth = buildUser();
      expectTooMany(await api.post('/api/auth/register').send(fourth), 60);
      const rows = await ctx.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', fourth.email)
        .execute();
      expect(rows).toEqual([]);
    });

    it('refuses the 4th upload a minute with 429, whatever the request held', async () => {
      const api = appOn(ctx.db, { authRateLimit: 3 });
      for (let i = 0; i < 3; i++) await api.post(UPLOAD).send({}).expect(400);
      expectTooMany(await api.post(UPLOAD).send({}), 60);
    });

    it('counts each IP apart', async () => {
      const api = behindProxy({ authRateLimit: 2 });
      const [first, second] = [nextIp(), nextIp()];
      const login = (ip: string) =>
        api
          .post('/api/auth/login')
          .set('X-Forwarded-For', ip)
          .send({ email: 'nobody@example.com', password: 'whatever' });
      await login(first).expect(401);
      await login(first).expect(401);
      await login(first).expect(429);
      await login(second).expect(401);
    });
  });

  describe('wrong admin invite codes per IP', () => {
    const windowSeconds = INVITE_FAILURES.windowMs / 1000;

    it(`refuses every admin sign-up after ${INVITE_FAILURES.limit} wrong codes, even the right code`, async () => {
      const api = behindProxy();
      const ip = nextIp();
      const register = (body: Record<string, unknown>) =>
        api.post('/api/auth/register').set('X-Forwarded-For', ip).send(body);

      // Neither members nor requests refused before the code is compared count.
      for (let i = 0; i < INVITE_FAILURES.limit + 2; i++) {
        await register(buildUser()).expect(201);
        await register(buildUser({ email: 'not-an-email', adminInviteToken: '000000' })).expect(
          400,
        );
      }
      for (let i = 0; i < INVITE_FAILURES.limit; i++) {
        const res = await register(buildUser({ adminInviteToken: String(100000 + i) })).expect(400);
        expect(res.body.message).toBe(apiMessages.invalidInviteToken);
      }
      const lucky = buildUser({ adminInviteToken: INVITE_TOKEN });
      expectTooMany(await register(lucky), windowSeconds);
      const rows = await ctx.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', lucky.email)
        .execute();
      expect(rows).toEqual([]);
      // Sign-ups without a code still work from there: only guessing is stopped.
      await register(buildUser()).expect(201);

      // Another IP is not affected.
      const other = await api
        .post('/api/auth/register')
        .set('X-Forwarded-For', nextIp())
        .send(buildUser({ adminInviteToken: INVITE_TOKEN }))
        .expect(201);
      expect(other.body.role).toBe('admin');
    });
  });

  describe('failed sign-ins per account', () => {
    const windowSeconds = ACCOUNT_FAILURES.windowMs / 1000;

    it(`locks an account after ${ACCOUNT_FAILURES.limit} wrong passwords, however many IPs sent them`, async () => {
      const api = behindProxy();
      const victim = await signUpMember(api);
      const bystander = await signUpMember(api);
      const login = (email: string, password: string) =>
        api.post('/api/auth/login').set('X-Forwarded-For', nextIp()).send({ email, password });

      // Each guess from a new IP, in the e-mail's different spellings: one account all the same.
      const spellings = [victim.email, victim.email.toUpperCase(), `  ${victim.email} `];
      for (let i = 0; i < ACCOUNT_FAILURES.limit; i++) {
        await login(spellings[i % spellings.length]!, `guess-${i}`).expect(401);
      }
      const retryAfter = expectTooMany(await login(victim.email, victim.password), windowSeconds);
      // The account's window (15 minutes), not the per-IP minute.
      expect(retryAfter).toBeGreaterThan(60);

      // Another account, from the same IPs, is untouched.
      await login(bystander.email, bystander.password).expect(200);
      await login(bystander.email, 'wrong-password').expect(401);
      await login(bystander.email, bystander.password).expect(200);
    });

    it('counts only failures: successful sign-ins do not use up the allowance', async () => {
      const api = behindProxy();
      const user = await signUpMember(api);
      const login = (password: string) =>
        api
          .post('/api/auth/login')
          .set('X-Forwarded-For', nextIp())
          .send({ email: user.email, password });

      for (let i = 0; i < ACCOUNT_FAILURES.limit - 1; i++)
        await login('wrong-password').expect(401);
      for (let i = 0; i < ACCOUNT_FAILURES.limit * 2; i++) await login(user.password).expect(200);
      // Neither do requests that never checked a password.
      await api.post('/api/auth/login').send({ email: user.email }).expect(400);
      // The last failure allowed, then the lock.
      await login('wrong-password').expect(401);
      expectTooMany(await login(user.password), windowSeconds);
    });
  });

  redisOnly.it(
    'shares the counts of two apps on one Redis: the second refuses at once',
    async () => {
      const prefix = uniquePrefix();
      const first = appOn(ctx.db, { authRateLimit: 2 }, storesFor(prefix));
      const second = appOn(ctx.db, { authRateLimit: 2 }, storesFor(prefix));
      const body = { email: 'nobody@example.com', password: 'whatever' };
      await first.post('/api/auth/login').send(body).expect(401);
      await first.post('/api/auth/login').send(body).expect(401);
      expectTooMany(await second.post('/api/auth/login').send(body), 60);
      // Its own limits are shared too, and still its own: upload is a separate count.
      await second.post(UPLOAD).send({}).expect(400);
      // Under another prefix (another deployment on the same Redis), nothing is shared.
      const elsewhere = appOn(ctx.db, { authRateLimit: 2 });
      await elsewhere.post('/api/auth/login').send(body).expect(401);
    },
  );

  redisOnly.it('shares the per-account lock across apps and IPs', async () => {
    const prefix = uniquePrefix();
    const apps = [0, 1].map(() => appOn(ctx.db, { trustProxy: 1 }, storesFor(prefix)));
    const user = await signUpMember(apps[0]!);
    for (let i = 0; i < ACCOUNT_FAILURES.limit; i++) {
      await apps[i % 2]!.post('/api/auth/login')
        .set('X-Forwarded-For', nextIp())
        .send({ email: user.email, password: 'wrong-password' })
        .expect(401);
    }
    for (const api of apps) {
      const res = await api
        .post('/api/auth/login')
        .set('X-Forwarded-For', nextIp())
        .send({ email: user.email, password: user.password });
      expectTooMany(res, ACCOUNT_FAILURES.windowMs / 1000);
    }
  });

  memoryOnly.it('keeps apart two apps counting in memory (each process alone)', async () => {
    const body = { email: 'nobody@example.com', password: 'whatever' };
    const first = appOn(ctx.db, { authRateLimit: 1 });
    await first.post('/api/auth/login').send(body).expect(401);
    await first.post('/api/auth/login').send(body).expect(429);
    await appOn(ctx.db, { authRateLimit: 1 }).post('/api/auth/login').send(body).expect(401);
  });
});

describe(`rate limits while Redis is down (${ENGINE})`, () => {
  let ctx: TestContext;
  let redis: Redis;
  const lines: string[] = [];
  const logger: Logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });

  beforeAll(async () => {
    ctx = await createTestContext();
    // Nothing listens there: every command fails at once, as when Redis is stopped.
    redis = await createRateLimitRedis(`redis://127.0.0.1:${await closedPort()}`, logger);
  });
  afterAll(async () => {
    redis.disconnect();
    await ctx.close();
  });

  it('answers at once, never 500, and still limits: counted in this process instead', async () => {
    const api = request(
      createApp({
        db: ctx.db,
        config: { ...testConfig, authRateLimit: 3 },
        logger,
        rateLimitStores: redisStores(redis, logger, uniquePrefix()),
      }),
    );
    const user = buildUser();
    await api.post('/api/auth/register').send(user).expect(201);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const started = Date.now();
      const res = await api
        .post('/api/auth/login')
        .send({ email: user.email, password: user.password });
      // Generous: proves no request waits for Redis to come back (ioredis would retry for ages).
      expect(Date.now() - started).toBeLessThan(2_000);
      statuses.push(res.status);
      if (res.status === 429) expectTooMany(res, 60);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(lines.join('')).toContain('Redis unavailable; counting in this process');
  });
});

// The process and its Redis client are the same on both engines: checked in the SQLite pass.
onlyOn('sqlite', 'the same on both engines: checked in the SQLite pass').describe(
  'the server process with REDIS_URL',
  () => {
    const running: ServerProcess[] = [];
    afterEach(() => killAll(running));

    it('starts, limits and stops cleanly while Redis is unreachable', async () => {
      const server = startServer({
        DATA_DIR: tempDir(),
        PORT: '0',
        REDIS_URL: `redis://127.0.0.1:${await closedPort()}`,
        AUTH_RATE_LIMIT: '2',
        BCRYPT_COST: '4',
      });
      running.push(server);
      const base = await serverUrl(server);
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${base}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'nobody@example.com', password: 'whatever' }),
        });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([401, 401, 429]);
      await waitForOutput(server, /Redis unavailable; counting in this process/);

      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      expect(server.output()).toContain('stopped');
    });
  },
);
