import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../helpers/factories.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

/**
 * Sign-ins, sign-ups, ended tokens, 401s and 403s are logged as structured lines with an `event`
 * field, and no line carries a password, a token or the invite code.
 */

// Distinctive, so that finding one in the log cannot be a coincidence of ids or timestamps.
const INVITE_CODE = 'invite-Zq7xWv-code';
const ADMIN_PASSWORD = 'admin-Pq9-passphrase';
const MEMBER_PASSWORD = 'member-Kx4-passphrase';
const NEW_PASSWORD = 'member-Tn8-new-passphrase';
const RESET_PASSWORD = 'reset-Vb2-by-admin';
const WRONG_PASSWORD = 'wrong-Hj6-passphrase';

type Entry = Record<string, unknown>;

describe(`auth events in the log (${ENGINE})`, () => {
  let ctx: TestContext;
  const lines: string[] = [];
  const tokens: string[] = [];
  const entries = () => lines.map((line) => JSON.parse(line) as Entry);
  const events = (name: string) => entries().filter((entry) => entry.event === name);

  let admin: { id: string; auth: { Authorization: string } };
  let member: { id: string; email: string; auth: { Authorization: string } };

  async function register(body: Record<string, unknown>) {
    const res = await ctx.api.post('/api/auth/register').send(buildUser(body)).expect(201);
    tokens.push(res.body.token);
    return {
      id: res.body._id as string,
      email: res.body.email as string,
      auth: { Authorization: `Bearer ${res.body.token}` },
    };
  }

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    ctx = await createTestContext(
      { adminInviteToken: INVITE_CODE },
      { logger: pino({ level: 'info' }, sink) },
    );
    admin = await register({ password: ADMIN_PASSWORD, adminInviteToken: INVITE_CODE });
    member = await register({ password: MEMBER_PASSWORD });
  });
  afterAll(() => ctx.close());

  it('logs a sign-up with the user id and role', () => {
    expect(events('auth.register')).toEqual([
      expect.objectContaining({ userId: admin.id, role: 'admin' }),
      expect.objectContaining({ userId: member.id, role: 'member' }),
    ]);
  });

  it('logs a sign-in, and a failed one with the lowercased e-mail and the reason', async () => {
    const ok = await ctx.api
      .post('/api/auth/login')
      .send({ email: member.email, password: MEMBER_PASSWORD })
      .expect(200);
    tokens.push(ok.body.token);
    await ctx.api
      .post('/api/auth/login')
      .send({ email: member.email.toUpperCase(), password: WRONG_PASSWORD })
      .expect(401);
    await ctx.api
      .post('/api/auth/login')
      .send({ email: 'Nobody.Here@Example.COM', password: WRONG_PASSWORD })
      .expect(401);

    expect(events('auth.login.succeeded')).toEqual([
      expect.objectContaining({ userId: member.id }),
    ]);
    expect(events('auth.login.failed')).toEqual([
      expect.objectContaining({ email: member.email.toLowerCase(), reason: 'wrong-password' }),
      expect.objectContaining({ email: 'nobody.here@example.com', reason: 'unknown-email' }),
    ]);
  });

  it('logs a 401 on a protected route with method and path, and no token', async () => {
    await ctx.api.get('/api/tasks?status=Pending').expect(401);
    await ctx.api.post('/api/auth/logout').set('Authorization', 'Bearer not-a-token').expect(401);
    const logged = events('auth.unauthorized');
    expect(logged).toEqual([
      expect.objectContaining({ method: 'GET', path: '/api/tasks' }),
      expect.objectContaining({ method: 'POST', path: '/api/auth/logout' }),
    ]);
    for (const entry of logged) expect(entry).not.toHaveProperty('userId');
    // A failed sign-in is not a request to a protected route: it has its own event.
    expect(logged.some((entry) => entry.path === '/api/auth/login')).toBe(false);
  });

  it('logs every 403 with the user id, method and path, wherever it was refused', async () => {
    await ctx.api.get('/api/users').set(member.auth).expect(403);
    await ctx.api.get(`/api/users/${admin.id}`).set(member.auth).expect(403);
    expect(events('auth.forbidden')).toEqual([
      expect.objectContaining({ userId: member.id, method: 'GET', path: '/api/users' }),
      expect.objectContaining({ userId: member.id, method: 'GET', path: `/api/users/${admin.id}` }),
    ]);
  });

  it('logs each way tokens end, with the user id and the reason', async () => {
    const revoked = () => events('auth.token.revoked');

    await ctx.api.post('/api/auth/logout').set(member.auth).expect(200);
    expect(revoked().at(-1)).toMatchObject({ userId: member.id, reason: 'logout' });

    const signedIn = await ctx.api
      .post('/api/auth/login')
      .send({ email: member.email, password: MEMBER_PASSWORD })
      .expect(200);
    tokens.push(signedIn.body.token);
    const changed = await ctx.api
      .put('/api/auth/profile')
      .set('Authorization', `Bearer ${signedIn.body.token}`)
      .send({ currentPassword: MEMBER_PASSWORD, newPassword: NEW_PASSWORD })
      .expect(200);
    tokens.push(changed.body.token);
    expect(revoked().at(-1)).toMatchObject({ userId: member.id, reason: 'password-change' });

    await ctx.api
      .put(`/api/users/${member.id}`)
      .set(admin.auth)
      .send({ role: 'admin' })
      .expect(200);
    expect(revoked().at(-1)).toMatchObject({ userId: member.id, reason: 'role-change' });

    await ctx.api
      .put(`/api/users/${member.id}`)
      .set(admin.auth)
      .send({ password: RESET_PASSWORD })
      .expect(200);
    expect(revoked().at(-1)).toMatchObject({ userId: member.id, reason: 'password-change' });

    // A rename ends no token and is not reported as if it did.
    const before = revoked().length;
    await ctx.api.put(`/api/users/${member.id}`).set(admin.auth).send({ name: 'Renamed' });
    expect(revoked()).toHaveLength(before);

    await ctx.api.delete(`/api/users/${member.id}`).set(admin.auth).expect(200);
    expect(revoked().at(-1)).toMatchObject({ userId: member.id, reason: 'user-deleted' });
    expect(revoked().map((entry) => entry.reason)).toEqual([
      'logout',
      'password-change',
      'role-change',
      'password-change',
      'user-deleted',
    ]);
  });

  // Last: it reads everything the tests above logged.
  it('never logs a password, a token, a hash, the invite code or an Authorization header', () => {
    expect(tokens.length).toBeGreaterThanOrEqual(5);
    const log = lines.join('\n').toLowerCase();
    const secrets = [
      INVITE_CODE,
      ADMIN_PASSWORD,
      MEMBER_PASSWORD,
      NEW_PASSWORD,
      RESET_PASSWORD,
      WRONG_PASSWORD,
      'not-a-token',
      '$2', // bcrypt hashes
      'authorization',
      'bearer',
      ...tokens,
      // The signature alone would be enough to replay a token.
      ...tokens.map((token) => token.split('.')[2]!),
    ];
    for (const secret of secrets) expect(log, secret).not.toContain(secret.toLowerCase());
    // The events are there to be found: the check above is not passing on an empty log.
    expect(entries().filter((entry) => typeof entry.event === 'string').length).toBeGreaterThan(10);
  });
});
