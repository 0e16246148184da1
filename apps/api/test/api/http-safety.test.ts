import { Writable } from 'node:stream';
import { pino } from 'pino';
import type { Response } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages, validationMessages } from '@task-manager/shared';
import { buildUser, createTask, signUp, type Session } from '../helpers/factories.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const BCRYPT_HASH = /\$2[aby]\$/;

function expectJson(res: Response) {
  expect(res.headers['content-type']).toMatch(/^application\/json/);
}

describe(`HTTP safety (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;
  let member: Session;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
    member = await signUp(ctx, 'member');
  });
  afterAll(() => ctx.close());

  describe('request bodies', () => {
    it('answers malformed JSON with 400 and a plain message', async () => {
      const login = await ctx.api
        .post('/api/auth/login')
        .set('Content-Type', 'application/json')
        .send('{"email": "someone@example.com", "password":')
        .expect(400);
      expectJson(login);
      expect(login.body).toEqual({ message: apiMessages.malformedJson, code: expect.any(String) });
      expect(login.body).toEqual({
        message: 'Malformed JSON in request body',
        code: expect.any(String),
      });

      const task = await createTask(ctx, admin, [member.id]);
      const update = await ctx.api
        .put(`/api/tasks/${task._id}`)
        .set(admin.auth)
        .set('Content-Type', 'application/json')
        .send("{'title': 'single quotes are not JSON'}")
        .expect(400);
      expect(update.body).toEqual({ message: apiMessages.malformedJson, code: expect.any(String) });
      const after = await ctx.api.get(`/api/tasks/${task._id}`).set(admin.auth).expect(200);
      expect(after.body.title).toBe(task.title);
    });

    it('refuses a body over 1 MB with 413 JSON, and reads one just under it', async () => {
      const admin = await signUp(ctx, 'admin');
      const tooLarge = JSON.stringify({ ...buildUser(), name: 'x'.repeat(1024 * 1024 + 16) });
      const res = await ctx.api
        .post('/api/users')
        .set(admin.auth)
        .set('Content-Type', 'application/json')
        .send(tooLarge)
        .expect(413);
      expectJson(res);
      expect(res.body).toEqual({ message: apiMessages.bodyTooLarge, code: expect.any(String) });

      // 900 KB is parsed: the validator, not the size limit, answers.
      const underLimit = await ctx.api
        .post('/api/users')
        .set(admin.auth)
        .send({ ...buildUser(), name: 'x'.repeat(900 * 1024) })
        .expect(400);
      expect(underLimit.body.message).toBe(validationMessages.nameTooLong);
    });

    it.each([
      ['POST', '/api/auth/register'],
      ['POST', '/api/auth/login'],
      ['PUT', '/api/auth/profile'],
    ])(
      '%s %s takes at most 16 KB of body (413 JSON), and reads one just under it',
      async (method, path) => {
        const member = await signUp(ctx);
        const send = (body: object) =>
          ctx.api[method === 'PUT' ? 'put' : 'post'](path).set(member.auth).send(body);
        const tooLarge = await send({ ...buildUser(), name: 'x'.repeat(16 * 1024 + 1) }).expect(
          413,
        );
        expectJson(tooLarge);
        expect(tooLarge.body).toEqual({
          message: apiMessages.bodyTooLarge,
          code: expect.any(String),
        });
        // Parsed: the validator (400) or the password check (401), not the size limit, answers.
        const underLimit = await send({ ...buildUser(), name: 'x'.repeat(15 * 1024) });
        expect([400, 401]).toContain(underLimit.status);
        expect(underLimit.body.message).not.toBe(apiMessages.bodyTooLarge);
      },
    );
  });

  describe('routing', () => {
    it.each([
      ['GET', '/api/whatever', false],
      ['POST', '/api/whatever', false],
      ['GET', '/api/auth/whatever', false],
      ['GET', '/api/images', false],
      ['DELETE', '/api/tasks', true],
      ['GET', '/api/tasks/a/b/c', true],
    ] as const)('answers %s %s with 404 JSON {message}', async (method, path, signedIn) => {
      let req = ctx.api[method.toLowerCase() as 'get' | 'post' | 'delete'](path);
      if (signedIn) req = req.set(admin.auth);
      const res = await req.expect(404);
      expectJson(res);
      expect(res.body).toEqual({ message: apiMessages.notFound, code: expect.any(String) });
    });

    it('accepts a trailing slash, as the spec writes the paths', async () => {
      const task = await createTask(ctx, admin, [member.id]);
      const plain = await ctx.api.get('/api/tasks').set(member.auth).expect(200);
      const slashed = await ctx.api.get('/api/tasks/').set(member.auth).expect(200);
      expect(slashed.body).toEqual(plain.body);
      expect(slashed.body.tasks.map((t: { _id: string }) => t._id)).toContain(task._id);

      const one = await ctx.api.get(`/api/tasks/${task._id}/`).set(member.auth).expect(200);
      expect(one.body._id).toBe(task._id);
      const login = await ctx.api
        .post('/api/auth/login/')
        .send({ email: member.email, password: member.password })
        .expect(200);
      expect(login.body._id).toBe(member.id);
      const profile = await ctx.api.get('/api/auth/profile/').set(member.auth).expect(200);
      expect(profile.body._id).toBe(member.id);
      const users = await ctx.api.get('/api/users/').set(admin.auth).expect(200);
      expect(users.body.map((u: { _id: string }) => u._id)).toContain(member.id);
      const dashboard = await ctx.api.get('/api/tasks/dashboard-data/').set(admin.auth).expect(200);
      expect(dashboard.body.statistics.totalTasks).toBeGreaterThan(0);
    });
  });

  describe('server errors', () => {
    it('answers exactly {message: "Server error"}, with no stack or driver detail', async () => {
      const lines: string[] = [];
      const sink = new Writable({
        write(chunk, _encoding, done) {
          lines.push(...String(chunk).split('\n').filter(Boolean));
          done();
        },
      });
      const broken = await createTestContext({}, { logger: pino({ level: 'error' }, sink) });
      const user = await signUp(broken, 'member');
      // The database goes away under a running app: every query now fails.
      await broken.close();

      const requests = [
        broken.api.get('/api/tasks').set(user.auth),
        broken.api.get('/api/auth/profile').set(user.auth),
        broken.api.post('/api/auth/login').send({ email: user.email, password: user.password }),
      ];
      for (const pending of requests) {
        const res = await pending.expect(500);
        expectJson(res);
        expect(res.body).toEqual({ message: 'Server error', code: expect.any(String) });
        expect(res.body).toEqual({ message: apiMessages.serverError, code: expect.any(String) });
        expect(res.text).not.toMatch(/stack|at .*\(|node_modules|\.ts:|sqlite|pool|database/i);
      }
      // The cause is logged for the operator instead.
      const logged = lines.map((line) => JSON.parse(line) as { msg?: string; err?: unknown });
      const unhandled = logged.filter((entry) => entry.msg === 'unhandled error' && entry.err);
      expect(unhandled).toHaveLength(3);
    });
  });

  describe('headers', () => {
    const requests: Array<[string, () => Promise<Response>]> = [
      ['a 200 answer', () => ctx.api.get('/api/tasks').set(member.auth).expect(200)],
      ['a 401 answer', () => ctx.api.get('/api/tasks').expect(401)],
      ['a 404 answer', () => ctx.api.get('/api/nothing-here').expect(404)],
      [
        'a 400 answer',
        () =>
          ctx.api
            .post('/api/auth/login')
            .set('Content-Type', 'application/json')
            .send('{')
            .expect(400),
      ],
    ];

    it.each(requests)('sends the helmet headers and no X-Powered-By on %s', async (_name, send) => {
      const res = await send();
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toMatch(/(^|;)\s*default-src 'self'(;|$)/);
      // Framing is refused by CSP; X-Frame-Options, when sent, must not allow it either.
      expect(csp).toMatch(/frame-ancestors 'none'/);
      expect(['DENY', 'SAMEORIGIN', undefined]).toContain(res.headers['x-frame-options']);
      expect(res.headers['x-powered-by']).toBeUndefined();
      // Plain HTTP (no TLS, no trusted proxy): no HSTS.
      expect(res.headers['strict-transport-security']).toBeUndefined();
    });

    it.each(requests)('sends a fresh X-Request-Id on %s', async (_name, send) => {
      const first = await send();
      const second = await send();
      expect(first.headers['x-request-id']).toMatch(UUID);
      expect(second.headers['x-request-id']).toMatch(UUID);
      expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    });
  });

  describe('rate limit on sign-in and sign-up', () => {
    /** A context allowing 3 requests a minute per limited route. */
    async function withLimit(run: (limited: TestContext) => Promise<void>) {
      const limited = await createTestContext({ authRateLimit: 3 });
      try {
        await run(limited);
      } finally {
        await limited.close();
      }
    }

    function expectTooMany(res: Response) {
      expect(res.status).toBe(429);
      expectJson(res);
      expect(res.body).toEqual({
        message: 'Too many requests, please try again later',
        code: 'too_many_requests',
      });
      expect(res.body).toEqual({ message: apiMessages.tooManyRequests, code: expect.any(String) });
      const retryAfter = Number(res.headers['retry-after']);
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }

    it('answers the 4th sign-up with 429 and Retry-After, creating no user', () =>
      withLimit(async (limited) => {
        for (let i = 0; i < 3; i++) {
          await limited.api.post('/api/auth/register').send(buildUser()).expect(201);
        }
        const fourth = buildUser();
        expectTooMany(await limited.api.post('/api/auth/register').send(fourth));
        const stored = await limited.db
          .selectFrom('users')
          .select('id')
          .where('email', '=', fourth.email)
          .execute();
        expect(stored).toEqual([]);
        // Sign-in keeps its own count.
        await limited.api
          .post('/api/auth/login')
          .send({ email: fourth.email, password: fourth.password })
          .expect(401);
      }));

    it('answers the 4th sign-in with 429 even with the right password', () =>
      withLimit(async (limited) => {
        const user = await signUp(limited, 'member');
        const credentials = { email: user.email, password: user.password };
        await limited.api.post('/api/auth/login').send(credentials).expect(200);
        await limited.api
          .post('/api/auth/login')
          .send({ ...credentials, password: 'wrong-password' })
          .expect(401);
        await limited.api.post('/api/auth/login').send(credentials).expect(200);
        const res = await limited.api.post('/api/auth/login').send(credentials);
        expectTooMany(res);
        expect(res.body.token).toBeUndefined();
        // Other routes are not limited.
        for (let i = 0; i < 4; i++) {
          const profile = await limited.api.get('/api/auth/profile').set(user.auth).expect(200);
          expect(profile.headers['retry-after']).toBeUndefined();
        }
      }));
  });

  describe('CORS', () => {
    it('allows no origin by default', async () => {
      const res = await ctx.api
        .get('/api/tasks')
        .set(member.auth)
        .set('Origin', 'http://evil.test')
        .expect(200);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      const preflight = await ctx.api
        .options('/api/tasks')
        .set('Origin', 'http://evil.test')
        .set('Access-Control-Request-Method', 'PUT')
        .set('Access-Control-Request-Headers', 'authorization,content-type');
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
      expect(preflight.headers['access-control-allow-methods']).toBeUndefined();
    });

    describe('with configured origins', () => {
      let open: TestContext;
      let user: Session;
      beforeAll(async () => {
        open = await createTestContext({ corsOrigins: ['http://allowed.test'] });
        user = await signUp(open, 'member');
      });
      afterAll(() => open.close());

      it('echoes an allowed origin and exposes Content-Disposition and Retry-After', async () => {
        const res = await open.api
          .get('/api/tasks')
          .set(user.auth)
          .set('Origin', 'http://allowed.test')
          .expect(200);
        expect(res.headers['access-control-allow-origin']).toBe('http://allowed.test');
        expect(res.headers['vary']).toMatch(/origin/i);
        const exposed = String(res.headers['access-control-expose-headers']).toLowerCase();
        expect(exposed).toContain('content-disposition');
        expect(exposed).toContain('retry-after');
      });

      it('answers a preflight from an allowed origin', async () => {
        const res = await open.api
          .options('/api/tasks/some-id')
          .set('Origin', 'http://allowed.test')
          .set('Access-Control-Request-Method', 'PUT')
          .set('Access-Control-Request-Headers', 'authorization,content-type')
          .expect(204);
        expect(res.headers['access-control-allow-origin']).toBe('http://allowed.test');
        expect(String(res.headers['access-control-allow-methods'])).toContain('PUT');
        const headers = String(res.headers['access-control-allow-headers']).toLowerCase();
        expect(headers).toContain('authorization');
        expect(headers).toContain('content-type');
        expect(res.headers['access-control-max-age']).toBe('600');
      });

      it('does not allow another origin', async () => {
        const res = await open.api
          .get('/api/tasks')
          .set(user.auth)
          .set('Origin', 'http://evil.test')
          .expect(200);
        expect(res.headers['access-control-allow-origin']).toBeUndefined();
        const preflight = await open.api
          .options('/api/tasks')
          .set('Origin', 'http://evil.test')
          .set('Access-Control-Request-Method', 'DELETE');
        expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
      });
    });
  });

  describe('password hashes never leave the server', () => {
    /** Every key anywhere in a JSON value. */
    function keysOf(value: unknown): string[] {
      if (Array.isArray(value)) return value.flatMap(keysOf);
      if (value && typeof value === 'object') {
        return Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)]);
      }
      return [];
    }

    it('stores bcrypt hashes, and no answer about users or tasks carries one', async () => {
      const body = buildUser();
      const register = await ctx.api.post('/api/auth/register').send(body).expect(201);
      const fresh = register.body._id as string;
      const stored = await ctx.db
        .selectFrom('users')
        .select('password_hash')
        .where('id', '=', fresh)
        .executeTakeFirstOrThrow();
      // The check below means something only if hashes look like this.
      expect(stored.password_hash).toMatch(BCRYPT_HASH);

      const task = await createTask(ctx, admin, [member.id, fresh]);
      const freshAuth = { Authorization: `Bearer ${register.body.token}` };
      const answers: Array<[string, Response]> = [
        ['register', register],
        [
          'login',
          await ctx.api
            .post('/api/auth/login')
            .send({ email: body.email, password: body.password })
            .expect(200),
        ],
        ['profile', await ctx.api.get('/api/auth/profile').set(freshAuth).expect(200)],
        [
          'profile update',
          await ctx.api
            .put('/api/auth/profile')
            .set(freshAuth)
            .send({
              name: 'New Name',
              currentPassword: body.password,
              newPassword: 'another-long-password',
            })
            .expect(200),
        ],
        ['users list', await ctx.api.get('/api/users').set(admin.auth).expect(200)],
        ['user by id', await ctx.api.get(`/api/users/${fresh}`).set(admin.auth).expect(200)],
        [
          'user created by admin',
          await ctx.api.post('/api/users').set(admin.auth).send(buildUser()).expect(201),
        ],
        [
          'user updated by admin',
          await ctx.api
            .put(`/api/users/${member.id}`)
            .set(admin.auth)
            .send({ name: 'Member Renamed' })
            .expect(200),
        ],
        ['tasks list', await ctx.api.get('/api/tasks').set(admin.auth).expect(200)],
        ['task by id', await ctx.api.get(`/api/tasks/${task._id}`).set(admin.auth).expect(200)],
        ['dashboard', await ctx.api.get('/api/tasks/dashboard-data').set(admin.auth).expect(200)],
      ];

      for (const [name, res] of answers) {
        expect(res.text, name).not.toMatch(BCRYPT_HASH);
        expect(
          keysOf(res.body).filter((key) => /password|hash/i.test(key)),
          name,
        ).toEqual([]);
      }
      // The lists really did include the users (and assignees) in question.
      const listed = answers.find(([name]) => name === 'tasks list')?.[1].body.tasks as Array<{
        _id: string;
        assignedTo: Array<{ _id: string }>;
      }>;
      const assignees = listed.find((t) => t._id === task._id)?.assignedTo.map((a) => a._id);
      expect(assignees).toEqual(expect.arrayContaining([member.id, fresh]));
    });
  });
});
