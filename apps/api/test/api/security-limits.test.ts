import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { pino, type Logger } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages, validationMessages } from '@task-manager/shared';
import { createApp } from '../../src/app.js';
import { createPasswordHasher } from '../../src/auth/passwords.js';
import type { AppConfig } from '../../src/config.js';
import { HttpError } from '../../src/errors.js';
import {
  ACCOUNT_FAILURES,
  INVITE_FAILURES,
  INVITE_FAILURES_ALL,
  redisStores,
  type RateLimitStoreFactory,
} from '../../src/http/rate-limit.js';
import { buildUser } from '../helpers/factories.js';
import { connectRedis } from '../helpers/redis.js';
import { expectTooMany } from '../helpers/too-many.js';
import { besideBusyHashing } from '../helpers/password-work.js';
import {
  createTestContext,
  ENGINE,
  INVITE_TOKEN,
  testConfig,
  type TestContext,
} from '../helpers/test-app.js';

/**
 * Security round 2: the limits an outside attack got around. Every wrong admin invite code
 * counts across all addresses; the per-IP limit runs before the body is read; a stolen token
 * cannot guess its owner's password through the profile; password work waits in a bounded queue.
 */

const silent = pino({ level: 'silent' });

describe(`security limits (${ENGINE})`, () => {
  let ctx: TestContext;
  let redis: Redis;
  let ipCounter = 0;
  /** A fresh address from a documentation range for every call: no per-IP limit ever applies. */
  const nextIp = () => `198.51.${Math.floor(ipCounter / 250) % 250}.${(ipCounter++ % 250) + 1}`;

  beforeAll(async () => {
    ctx = await createTestContext();
    redis = await connectRedis();
  });
  afterAll(async () => {
    await redis.quit();
    await ctx.close();
  });

  function appOn(
    config: Partial<AppConfig> = {},
    options: { logger?: Logger; stores?: RateLimitStoreFactory } = {},
  ) {
    return request(
      createApp({
        db: ctx.db,
        config: { ...testConfig, trustProxy: 1, ...config },
        logger: options.logger ?? silent,
        rateLimitStores: options.stores,
      }),
    );
  }

  describe('wrong admin invite codes from all addresses', () => {
    const windowSeconds = INVITE_FAILURES_ALL.windowMs / 1000;

    it(`refuses every invite sign-up after ${INVITE_FAILURES_ALL.limit} wrong codes from any mix of IPs, even the right code, and logs it`, async () => {
      const lines: string[] = [];
      const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
      const api = appOn({}, { logger });
      const register = (body: Record<string, unknown>, ip = nextIp()) =>
        api.post('/api/auth/register').set('X-Forwarded-For', ip).send(body);

      // Each address stays under its own limit of wrong codes.
      expect(INVITE_FAILURES_ALL.limit % 2).toBe(0);
      for (let i = 0; i < INVITE_FAILURES_ALL.limit / 2; i++) {
        const ip = nextIp();
        for (let guess = 0; guess < 2; guess++) {
          const code = String(100000 + i * 2 + guess);
          const res = await register(buildUser({ adminInviteToken: code }), ip).expect(400);
          expect(res.body.message).toBe(apiMessages.invalidInviteToken);
        }
      }
      expect(2).toBeLessThan(INVITE_FAILURES.limit);

      const lucky = buildUser({ adminInviteToken: INVITE_TOKEN });
      expectTooMany(await register(lucky), windowSeconds);
      const rows = await ctx.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', lucky.email)
        .execute();
      expect(rows).toEqual([]);
      const locked = lines
        .map((line) => JSON.parse(line))
        .filter((l) => l.event === 'auth.invite.locked');
      expect(locked).toHaveLength(1);
      expect(locked[0].level).toBe(40);
      expect(locked[0].msg).toMatch(/too many wrong invite codes from all addresses/);
      // No code, or the code itself, reaches the log.
      expect(lines.join('\n')).not.toContain(INVITE_TOKEN);

      // Members still sign up: only guessing is stopped.
      const member = await register(buildUser()).expect(201);
      expect(member.body.role).toBe('member');
    });

    it('counts the wrong codes of every process together through Redis', async () => {
      const prefix = `test:rate-limit:${randomUUID()}:`;
      const apps = [0, 1].map(() => appOn({}, { stores: redisStores(redis, silent, prefix) }));
      for (let i = 0; i < INVITE_FAILURES_ALL.limit; i++) {
        await apps[i % 2]!.post('/api/auth/register')
          .set('X-Forwarded-For', nextIp())
          .send(buildUser({ adminInviteToken: String(200000 + i) }))
          .expect(400);
      }
      for (const api of apps) {
        const res = await api
          .post('/api/auth/register')
          .set('X-Forwarded-For', nextIp())
          .send(buildUser({ adminInviteToken: INVITE_TOKEN }));
        expectTooMany(res, INVITE_FAILURES_ALL.windowMs / 1000);
      }
    });
  });

  describe('the per-IP limit runs before the body is read', () => {
    it.each(['/api/auth/login', '/api/auth/register'])(
      'a refused request to %s is not parsed: malformed JSON gets 429, not 400',
      async (path) => {
        const api = appOn({ authRateLimit: 1 });
        const ip = nextIp();
        const send = () =>
          api.post(path).set('X-Forwarded-For', ip).set('Content-Type', 'application/json');
        await send().send('{"email": oops').expect(400);
        expectTooMany(await send().send('{"email": oops'), 60);
      },
    );

    it('the backtracking e-mail of the attack is refused by its length, within a second', async () => {
      const api = appOn();
      const started = performance.now();
      const res = await api
        .post('/api/auth/login')
        .set('X-Forwarded-For', nextIp())
        .send({ email: `a@${'.'.repeat(15_000)}@`, password: 'whatever' })
        .expect(400);
      const ms = performance.now() - started;
      console.info(`sign-in with a 15,000-dot e-mail answered in ${ms.toFixed(1)} ms`);
      expect(res.body.message).toBe(validationMessages.invalidEmail);
      // Generous: the old pattern took tens of seconds on 100,000 dots, seconds on 15,000.
      expect(ms).toBeLessThan(1_000);
    });

    it('a passing sign-in shows the per-IP headers, never how often the account failed', async () => {
      const api = appOn({ authRateLimit: 50 });
      const user = buildUser();
      await api.post('/api/auth/register').set('X-Forwarded-For', nextIp()).send(user).expect(201);
      const ip = nextIp();
      for (let i = 0; i < 3; i++) {
        await api
          .post('/api/auth/login')
          .set('X-Forwarded-For', ip)
          .send({ email: user.email, password: 'wrong-password' })
          .expect(401);
      }
      const ok = await api
        .post('/api/auth/login')
        .set('X-Forwarded-For', ip)
        .send({ email: user.email, password: user.password })
        .expect(200);
      expect(ok.headers['ratelimit-policy']).toBe('50;w=60');
      expect(ok.headers['ratelimit']).toMatch(/^limit=50, remaining=46, reset=\d+$/);
    });
  });

  describe('the current password on PUT /api/auth/profile', () => {
    const windowSeconds = ACCOUNT_FAILURES.windowMs / 1000;

    async function member(api: ReturnType<typeof appOn>) {
      const user = buildUser();
      const res = await api
        .post('/api/auth/register')
        .set('X-Forwarded-For', nextIp())
        .send(user)
        .expect(201);
      return { ...user, id: res.body._id as string, auth: `Bearer ${res.body.token}` };
    }

    it(`allows ${ACCOUNT_FAILURES.limit} wrong guesses per account in 15 minutes, then 429 even for the right one`, async () => {
      const api = appOn();
      const victim = await member(api);
      const bystander = await member(api);
      const change = (who: { auth: string }, currentPassword: string) =>
        api
          .put('/api/auth/profile')
          .set('Authorization', who.auth)
          .set('X-Forwarded-For', nextIp())
          .send({ currentPassword, newPassword: 'A fresh passphrase 7' });

      for (let i = 0; i < ACCOUNT_FAILURES.limit; i++) {
        const res = await change(victim, `guess-${i}`).expect(400);
        expect(res.body.message).toBe(apiMessages.wrongCurrentPassword);
      }
      expectTooMany(await change(victim, victim.password as string), windowSeconds);
      // The password did not change: the owner still signs in with it.
      await api
        .post('/api/auth/login')
        .set('X-Forwarded-For', nextIp())
        .send({ email: victim.email, password: victim.password })
        .expect(200);
      // Another account is untouched.
      await change(bystander, 'wrong').expect(400);
      await change(bystander, bystander.password as string).expect(200);
    });

    it('counts only wrong current passwords: other refusals and other changes do not', async () => {
      const api = appOn();
      const user = await member(api);
      const put = (body: Record<string, unknown>) =>
        api.put('/api/auth/profile').set('Authorization', user.auth).send(body);
      for (let i = 0; i < ACCOUNT_FAILURES.limit + 2; i++) {
        await put({ name: `Name ${i}` }).expect(200);
        // A weak new password is refused before any guess is made.
        await put({ currentPassword: 'x', newPassword: 'password' }).expect(400);
        await put({ currentPassword: user.password, newPassword: 'short' }).expect(400);
      }
      await put({ currentPassword: user.password, newPassword: 'A fresh passphrase 7' }).expect(
        200,
      );
    });

    it('limits the route per user (AUTH_RATE_LIMIT a minute)', async () => {
      const api = appOn({ authRateLimit: 3 });
      const user = await member(api);
      const put = () =>
        api
          .put('/api/auth/profile')
          .set('Authorization', user.auth)
          .set('X-Forwarded-For', nextIp())
          .send({ name: 'Again' });
      for (let i = 0; i < 3; i++) await put().expect(200);
      expectTooMany(await put(), 60);
    });
  });
});

describe(`password work past its queue over HTTP (${ENGINE})`, () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('answers 503 with Retry-After on every route that hashes, and changes nothing', async () => {
    const api = request(
      createApp({
        db: ctx.db,
        config: {
          ...testConfig,
          bcryptCost: 12,
          passwordWork: { concurrency: 1, waiting: 0, retryAfterSeconds: 3 },
        },
        logger: silent,
      }),
    );
    const admin = await api
      .post('/api/auth/register')
      .send(buildUser({ adminInviteToken: INVITE_TOKEN }))
      .expect(201);
    const auth = { Authorization: `Bearer ${admin.body.token}` };
    const member = buildUser();
    const memberId = (await api.post('/api/users').set(auth).send(member).expect(201)).body._id;
    const password = buildUser().password;

    const requests = {
      register: () => api.post('/api/auth/register').send(buildUser()),
      login: () => api.post('/api/auth/login').send({ email: member.email, password: 'wrong' }),
      updateProfile: () =>
        api
          .put('/api/auth/profile')
          .set(auth)
          .send({ currentPassword: 'wrong-one', newPassword: password }),
      createUser: () => api.post('/api/users').set(auth).send(buildUser()),
      updateUser: () => api.put(`/api/users/${memberId}`).set(auth).send({ password }),
    };
    for (const [name, send] of Object.entries(requests)) {
      // One sign-in holds the only slot; the request beside it finds no room.
      const other = await besideBusyHashing(
        () => api.post('/api/auth/login').send({ email: member.email, password: member.password }),
        send,
      );
      expect(other.status, name).toBe(503);
      expect(other.body, name).toEqual({
        message: apiMessages.serverBusy,
        code: expect.any(String),
      });
      expect(other.headers['retry-after'], name).toBe('3');
    }
    // Nothing those refused requests carried was stored.
    const users = await ctx.db.selectFrom('users').select('id').execute();
    expect(users).toHaveLength(2);
  });
});

describe('password work waits in a bounded queue', () => {
  it('runs at most `concurrency` bcrypt jobs at once and refuses past `waiting` with 503', async () => {
    const hasher = createPasswordHasher(4, { concurrency: 2, waiting: 3, retryAfterSeconds: 2 });
    const hash = await hasher.hash('a fresh passphrase');
    let maxActive = 0;
    const jobs = Array.from({ length: 8 }, () =>
      hasher.verify('a fresh passphrase', hash).then(
        (ok) => ({ ok }),
        (error: unknown) => ({ error }),
      ),
    );
    const sampling = setInterval(() => {
      maxActive = Math.max(maxActive, hasher.activeCount());
    }, 1);
    const results = await Promise.all(jobs);
    clearInterval(sampling);

    expect(maxActive).toBeGreaterThan(0);
    expect(maxActive).toBeLessThanOrEqual(2);
    // 2 run, 3 wait, the other 3 are refused at once.
    const refused = results.filter((r) => 'error' in r).map((r) => (r as { error: unknown }).error);
    expect(results.filter((r) => 'ok' in r && r.ok)).toHaveLength(5);
    expect(refused).toHaveLength(3);
    for (const error of refused) {
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).status).toBe(503);
      expect((error as HttpError).message).toBe(apiMessages.serverBusy);
    }
  });
});
