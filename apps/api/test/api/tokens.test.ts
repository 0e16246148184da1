import { generateKeyPairSync, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import type { KyselyPlugin } from 'kysely';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages } from '@task-manager/shared';
import { createApp } from '../../src/app.js';
import { migrateToLatest, openDatabase } from '../../src/db/database.js';
import { openEmptyDatabase } from '../helpers/databases.js';
import { signUp, type Session } from '../helpers/factories.js';
import {
  createTestContext,
  ENGINE,
  POSTGRES_URL,
  testConfig,
  type TestContext,
} from '../helpers/test-app.js';

/**
 * Tokens end on the server: logout ends the one token, a password or role change and deletion
 * end all of a user's tokens, and no token that is forged, altered, expired or of another
 * algorithm gets in.
 */

const notAuthorized = { message: apiMessages.notAuthorized, code: 'unauthorized' };
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The claims a token of ours carries, for `session`'s user, valid for ten minutes. */
const claimsFor = (session: Session, overrides: Record<string, unknown> = {}) => ({
  sub: session.id,
  ver: 0,
  jti: randomUUID(),
  exp: nowSeconds() + 600,
  ...overrides,
});

const signHs256 = (claims: object, secret = testConfig.jwtSecret) =>
  jwt.sign(claims, secret, { algorithm: 'HS256' });

describe(`tokens that can be ended (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
  });
  afterAll(() => ctx.close());

  const profile = (token: string) => ctx.api.get('/api/auth/profile').set(bearer(token));
  const logout = (token: string) => ctx.api.post('/api/auth/logout').set(bearer(token));
  /** A second, independent session of the same user. */
  const signInAgain = async (session: Session) => {
    const res = await ctx.api
      .post('/api/auth/login')
      .send({ email: session.email, password: session.password })
      .expect(200);
    return res.body.token as string;
  };
  async function expectRefused(token: string) {
    const res = await profile(token).expect(401);
    expect(res.body).toEqual(notAuthorized);
  }

  describe('POST /api/auth/logout', () => {
    it('ends the token it was called with, and not another session of the same user', async () => {
      const member = await signUp(ctx);
      const other = await signInAgain(member);
      expect(other).not.toBe(member.token);

      const res = await logout(member.token).expect(200);
      expect(res.body).toEqual({ message: apiMessages.loggedOut });

      await expectRefused(member.token);
      await ctx.api.get('/api/tasks').set(member.auth).expect(401);
      const stillIn = await profile(other).expect(200);
      expect(stillIn.body._id).toBe(member.id);
      // Signing in again gives a token that works.
      await profile(await signInAgain(member)).expect(200);
    });

    it('refuses a second logout with the same token, and a logout without a token', async () => {
      const member = await signUp(ctx);
      await logout(member.token).expect(200);
      const again = await logout(member.token).expect(401);
      expect(again.body).toEqual(notAuthorized);
      const none = await ctx.api.post('/api/auth/logout').expect(401);
      expect(none.body).toEqual(notAuthorized);
    });

    it('records the token until its expiry, and prunes the records of expired tokens', async () => {
      const member = await signUp(ctx);
      const stale = randomUUID();
      const live = randomUUID();
      const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
      await ctx.db
        .insertInto('revoked_tokens')
        .values([
          { jti: stale, expires_at: new Date(Date.now() - 60_000).toISOString() },
          { jti: live, expires_at: inAnHour },
        ])
        .execute();
      const { jti, exp } = jwt.decode(member.token) as { jti: string; exp: number };

      await logout(member.token).expect(200);

      const rows = await ctx.db
        .selectFrom('revoked_tokens')
        .selectAll()
        .where('jti', 'in', [stale, live, jti])
        .orderBy('jti')
        .execute();
      expect(rows).toEqual(
        [
          { jti: live, expires_at: inAnHour },
          { jti, expires_at: new Date(exp * 1000).toISOString() },
        ].sort((a, b) => a.jti.localeCompare(b.jti)),
      );
    });

    it('gives every token its own random jti', async () => {
      const member = await signUp(ctx);
      const tokens = [member.token, await signInAgain(member), await signInAgain(member)];
      const ids = tokens.map((token) => (jwt.decode(token) as { jti?: unknown }).jti);
      for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(new Set(ids).size).toBe(3);
    });
  });

  describe('forged, altered and foreign tokens', () => {
    it('accepts a token signed here with every claim (control for the refusals below)', async () => {
      const member = await signUp(ctx);
      const res = await profile(signHs256(claimsFor(member))).expect(200);
      expect(res.body._id).toBe(member.id);
    });

    it('refuses an expired token', async () => {
      const member = await signUp(ctx);
      const token = signHs256(
        claimsFor(member, { iat: nowSeconds() - 7200, exp: nowSeconds() - 60 }),
      );
      await expectRefused(token);
    });

    it('refuses a token without a jti, or with a jti that is not a string', async () => {
      const member = await signUp(ctx);
      for (const jti of [undefined, '', 42, null, ['a'], { id: 'a' }]) {
        await expectRefused(signHs256(claimsFor(member, { jti })));
      }
    });

    it("refuses a token whose payload was changed to another user's id, signature kept", async () => {
      const member = await signUp(ctx);
      const [header, payload, signature] = member.token.split('.');
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as object;
      const tampered = `${header}.${base64url({ ...claims, sub: admin.id })}.${signature}`;
      await expectRefused(tampered);
      // The member's own token is untouched by the attempt.
      await profile(member.token).expect(200);
    });

    it("refuses an unsigned token (alg 'none')", async () => {
      const member = await signUp(ctx);
      const claims = claimsFor(member);
      for (const alg of ['none', 'None', 'NONE']) {
        await expectRefused(`${base64url({ alg, typ: 'JWT' })}.${base64url(claims)}.`);
      }
    });

    it('refuses HS384 and HS512 tokens signed with the right secret', async () => {
      const member = await signUp(ctx);
      for (const algorithm of ['HS384', 'HS512'] as const) {
        await expectRefused(jwt.sign(claimsFor(member), testConfig.jwtSecret, { algorithm }));
      }
    });

    it('refuses an RS256 token signed with an RSA key', async () => {
      const member = await signUp(ctx);
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      await expectRefused(jwt.sign(claimsFor(member), privateKey, { algorithm: 'RS256' }));
    });

    it('refuses a token signed with another secret', async () => {
      const member = await signUp(ctx);
      await expectRefused(signHs256(claimsFor(member), `${testConfig.jwtSecret}-other`));
    });

    it('refuses garbage, an empty Bearer and the Basic scheme', async () => {
      const member = await signUp(ctx);
      const basic = Buffer.from(`${member.email}:${member.password}`).toString('base64');
      for (const header of [
        'Bearer garbage',
        'Bearer not.a.token',
        'Bearer ',
        'Bearer',
        `Basic ${basic}`,
        `Basic ${member.token}`,
      ]) {
        const res = await ctx.api.get('/api/auth/profile').set('Authorization', header).expect(401);
        expect(res.body).toEqual(notAuthorized);
      }
      await profile(member.token).expect(200);
    });
  });

  describe('changes that end all of a user’s tokens', () => {
    /** A member with two sessions, both working. */
    async function memberWithTwoSessions() {
      const member = await signUp(ctx);
      const tokens = [member.token, await signInAgain(member)];
      for (const token of tokens) await profile(token).expect(200);
      return { member, tokens };
    }

    it('a role change by an admin', async () => {
      const { member, tokens } = await memberWithTwoSessions();
      await ctx.api
        .put(`/api/users/${member.id}`)
        .set(admin.auth)
        .send({ role: 'admin' })
        .expect(200);
      for (const token of tokens) await expectRefused(token);
      const fresh = await profile(await signInAgain(member)).expect(200);
      expect(fresh.body.role).toBe('admin');
    });

    it('a change of anything but role or password ends nothing (control)', async () => {
      const { member, tokens } = await memberWithTwoSessions();
      await ctx.api
        .put(`/api/users/${member.id}`)
        .set(admin.auth)
        .send({ name: 'Renamed', role: 'member' })
        .expect(200);
      for (const token of tokens) await profile(token).expect(200);
    });

    it('a password change through the profile; its answer carries a fresh, working token', async () => {
      const { member, tokens } = await memberWithTwoSessions();
      const res = await ctx.api
        .put('/api/auth/profile')
        .set(member.auth)
        .send({ currentPassword: member.password, newPassword: 'a-whole-new-passphrase' })
        .expect(200);
      for (const token of tokens) await expectRefused(token);
      expect(res.body.token).toEqual(expect.any(String));
      expect(tokens).not.toContain(res.body.token);
      const me = await profile(res.body.token).expect(200);
      expect(me.body._id).toBe(member.id);
      // And the fresh token can itself be ended.
      await logout(res.body.token).expect(200);
      await expectRefused(res.body.token);
    });

    it('a password reset by an admin', async () => {
      const { member, tokens } = await memberWithTwoSessions();
      await ctx.api
        .put(`/api/users/${member.id}`)
        .set(admin.auth)
        .send({ password: 'set-by-the-admin' })
        .expect(200);
      for (const token of tokens) await expectRefused(token);
    });

    it('deleting the user', async () => {
      const { member, tokens } = await memberWithTwoSessions();
      await ctx.api.delete(`/api/users/${member.id}`).set(admin.auth).expect(200);
      for (const token of tokens) await expectRefused(token);
      await ctx.api.post('/api/auth/logout').set(member.auth).expect(401);
    });
  });

  it('checks a token with one query per request', async () => {
    let queries = 0;
    const counting: KyselyPlugin = {
      transformQuery: (args) => {
        queries += 1;
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const app = createApp({
      db: ctx.db.withPlugin(counting),
      config: testConfig,
      logger: pino({ level: 'silent' }),
    });
    const member = await signUp(ctx);
    // An admin-only route: requireAuth's query, then a 403 before any other query.
    queries = 0;
    await request(app).get('/api/users').set(member.auth).expect(403);
    expect(queries).toBe(1);
    queries = 0;
    await request(app).get('/api/users').set(bearer('garbage')).expect(401);
    expect(queries).toBe(0);
  });
});

/** Revocations live in the database: another app (another process) on it refuses them too. */
describe(`a logout seen by another app on the same database (${ENGINE})`, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tm-tokens-'));
  let drop = async () => {};
  let closeSecond = async () => {};
  let first: ReturnType<typeof request>;
  let second: ReturnType<typeof request>;

  beforeAll(async () => {
    const empty = await openEmptyDatabase(dir);
    drop = empty.drop;
    await migrateToLatest(empty.handle);
    // Its own connection (pool) to the same database, as a second process would have.
    const other =
      ENGINE === 'sqlite'
        ? openDatabase({ engine: 'sqlite', file: path.join(dir, 'taskmanager.db') })
        : openDatabase({
            engine: 'postgres',
            url: POSTGRES_URL,
            schema: empty.handle.schema!,
            poolSize: 2,
          });
    closeSecond = () => other.close();
    const logger = pino({ level: 'silent' });
    first = request(createApp({ db: empty.handle.db, config: testConfig, logger }));
    second = request(createApp({ db: other.db, config: testConfig, logger }));
  });
  afterAll(async () => {
    await closeSecond();
    await drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses on one app a token logged out on the other', async () => {
    const res = await first
      .post('/api/auth/register')
      .send({ name: 'Ann', email: 'ann@example.com', password: 'correct-horse-battery' })
      .expect(201);
    const auth = bearer(res.body.token);
    await second.get('/api/auth/profile').set(auth).expect(200);
    await second.post('/api/auth/logout').set(auth).expect(200);
    await first.get('/api/auth/profile').set(auth).expect(401);
  });
});
