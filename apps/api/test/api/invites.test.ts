import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signUp, type Session } from '../helpers/factories.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

const tokenOf = (url: string) => new URL(url, 'http://x').searchParams.get('invite')!;

describe(`invitation links (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
  });
  afterAll(() => ctx.close());

  const invite = async (body: object = { role: 'member', expiresInDays: 7 }) =>
    (await ctx.api.post('/api/invites').set(admin.auth).send(body).expect(201)).body;
  const register = (token: string, overrides: Record<string, unknown> = {}) =>
    ctx.api.post('/api/auth/register').send({ ...buildUser(overrides), invite: token });

  it('works once, with the role it grants, and is kept only as a hash', async () => {
    const created = await invite({ role: 'admin', expiresInDays: 3 });
    expect(created).toMatchObject({ role: 'admin', email: null, status: 'pending' });
    expect(created.url).toBe(`/signup?invite=${created.token}`);
    const token = tokenOf(created.url);
    const days = (Date.parse(created.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(2.99);
    expect(days).toBeLessThanOrEqual(3);
    const rows = await ctx.db.selectFrom('invites').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(token);

    const lookup = await ctx.api.get(`/api/invites/lookup?token=${token}`).expect(200);
    expect(lookup.body).toEqual({ role: 'admin', email: null });

    const first = await register(token).expect(201);
    expect(first.body.role).toBe('admin');
    const second = await register(token).expect(400);
    expect(second.body.code).toBe('invalid_invite');
    await ctx.api.get(`/api/invites/lookup?token=${token}`).expect(404);

    const list = await ctx.api.get('/api/invites').set(admin.auth).expect(200);
    const listed = list.body.find((item: { _id: string }) => item._id === created._id);
    expect(listed).toMatchObject({ status: 'used', usedAt: expect.any(String) });
    expect(listed).not.toHaveProperty('token');
  });

  it('does not work once revoked', async () => {
    const created = await invite();
    const revoked = await ctx.api.delete(`/api/invites/${created._id}`).set(admin.auth).expect(200);
    expect(revoked.body.status).toBe('revoked');
    const res = await register(created.token).expect(400);
    expect(res.body.code).toBe('invalid_invite');
    await ctx.api.get(`/api/invites/lookup?token=${created.token}`).expect(404);
  });

  it('does not work after it expires', async () => {
    const created = await invite({ role: 'member', expiresInDays: 1 });
    await ctx.db
      .updateTable('invites')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', created._id)
      .execute();
    const res = await register(created.token).expect(400);
    expect(res.body.code).toBe('invalid_invite');
    const list = await ctx.api.get('/api/invites').set(admin.auth).expect(200);
    expect(list.body.find((i: { _id: string }) => i._id === created._id).status).toBe('expired');
  });

  it('is for the address it names only', async () => {
    const created = await invite({ role: 'member', email: 'Named@Example.com', expiresInDays: 2 });
    expect(created.email).toBe('named@example.com');
    const other = await register(created.token, { email: 'someone-else@example.com' }).expect(400);
    expect(other.body.code).toBe('invite_email_mismatch');
    await register(created.token, { email: 'named@example.com' }).expect(201);
  });

  it('lets one of two simultaneous sign-ups with one link through', async () => {
    const created = await invite();
    const results = await Promise.all([register(created.token), register(created.token)]);
    expect(results.map((res) => res.status).sort()).toEqual([201, 400]);
  });

  it('refuses bad input with a 400 naming the field, and is for admins only', async () => {
    const bad = await ctx.api
      .post('/api/invites')
      .set(admin.auth)
      .send({ role: 'member', expiresInDays: 31 })
      .expect(400);
    expect(bad.body.errors[0].path).toBe('expiresInDays');
    const member = await signUp(ctx);
    await ctx.api.post('/api/invites').set(member.auth).send({ role: 'member' }).expect(403);
    await ctx.api.get('/api/invites').set(member.auth).expect(403);
    await ctx.api.get('/api/invites').expect(401);
  });
});

describe(`sign-up by invitation only (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;

  beforeAll(async () => {
    ctx = await createTestContext({ signupMode: 'invite' });
    admin = await signUp(ctx, 'admin');
  });
  afterAll(() => ctx.close());

  it('refuses a plain sign-up, and says so in the options', async () => {
    const res = await ctx.api.post('/api/auth/register').send(buildUser()).expect(403);
    expect(res.body.code).toBe('signup_invite_only');
    const options = await ctx.api.get('/api/auth/options').expect(200);
    expect(options.body.signupMode).toBe('invite');
  });

  it('accepts an invitation, and the 6-digit admin code keeps working', async () => {
    const created = (
      await ctx.api
        .post('/api/invites')
        .set(admin.auth)
        .send({ role: 'member', expiresInDays: 1 })
        .expect(201)
    ).body;
    const res = await ctx.api
      .post('/api/auth/register')
      .send({ ...buildUser(), invite: created.token })
      .expect(201);
    expect(res.body.role).toBe('member');
    await signUp(ctx, 'admin');
  });

  it('shows the mode and code to admins, and rotates the code', async () => {
    const settings = await ctx.api.get('/api/settings').set(admin.auth).expect(200);
    expect(settings.body).toEqual({ signupMode: 'invite', adminInviteToken: '424242' });
    const rotated = await ctx.api
      .post('/api/settings/admin-invite-token')
      .set(admin.auth)
      .expect(200);
    expect(rotated.body.adminInviteToken).toMatch(/^\d{6}$/);
    expect(rotated.body.adminInviteToken).not.toBe('424242');
    await ctx.api
      .post('/api/auth/register')
      .send(buildUser({ adminInviteToken: '424242' }))
      .expect(400);
    const res = await ctx.api
      .post('/api/auth/register')
      .send(buildUser({ adminInviteToken: rotated.body.adminInviteToken }))
      .expect(201);
    expect(res.body.role).toBe('admin');
  });
});
