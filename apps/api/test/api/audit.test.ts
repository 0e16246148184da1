import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type Session } from '../helpers/factories.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

interface Entry {
  _id: string;
  actor: { _id: string | null; name: string };
  action: string;
  target: { type: string; _id: string | null; label: string | null };
  data: Record<string, unknown>;
  at: string;
}

describe(`the admin audit log (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin', { name: 'Audit Admin' });
  });
  afterAll(() => ctx.close());

  const entries = async (query = ''): Promise<Entry[]> =>
    (await ctx.api.get(`/api/audit${query}`).set(admin.auth).expect(200)).body;

  it('records who changed what and when, newest first', async () => {
    const member = await signUp(ctx);
    const before = Date.now();
    await ctx.api.patch(`/api/users/${member.id}`).set(admin.auth).send({ role: 'admin' });
    await ctx.api.patch(`/api/users/${member.id}`).set(admin.auth).send({ active: false });
    await ctx.api.patch(`/api/users/${member.id}`).set(admin.auth).send({ active: true });
    await ctx.api.post(`/api/users/${member.id}/password-reset`).set(admin.auth).expect(200);
    const invite = await ctx.api
      .post('/api/invites')
      .set(admin.auth)
      .send({ role: 'member', expiresInDays: 2 })
      .expect(201);
    await ctx.api.delete(`/api/invites/${invite.body._id}`).set(admin.auth).expect(200);
    await ctx.api.post('/api/settings/admin-invite-token').set(admin.auth).expect(200);
    await ctx.api.delete(`/api/users/${member.id}`).set(admin.auth).expect(200);

    const log = await entries();
    expect(log.map((entry) => entry.action)).toEqual([
      'user.delete',
      'settings.admin-invite-token',
      'invite.revoke',
      'invite.create',
      'user.password-reset-link',
      'user.reactivate',
      'user.deactivate',
      'user.role',
    ]);
    for (const entry of log) {
      expect(entry.actor).toEqual({ _id: admin.id, name: 'Audit Admin' });
      expect(Date.parse(entry.at)).toBeGreaterThanOrEqual(before - 1000);
    }
    expect(log.at(-1)).toMatchObject({
      target: { type: 'user', _id: member.id, label: member.email },
      data: { from: 'member', to: 'admin' },
    });
    // Secrets never reach the log.
    const text = JSON.stringify(log);
    expect(text).not.toContain(invite.body.token);
    expect(text).not.toMatch(/reset-password\?token/);
  });

  it('records accounts an admin makes and edits (POST and PUT /api/users), never a password', async () => {
    const created = await ctx.api
      .post('/api/users')
      .set(admin.auth)
      .send({
        name: 'Made By Admin',
        email: 'made-by-admin@example.com',
        password: 'Vivid-Harbor-Lantern-42',
        role: 'member',
      })
      .expect(201);
    await ctx.api
      .put(`/api/users/${created.body._id}`)
      .set(admin.auth)
      .send({ name: 'Renamed By Admin', role: 'admin', password: 'Quiet-Meadow-Compass-77' })
      .expect(200);
    // A refused edit (an e-mail someone has) is rolled back with its entry.
    await ctx.api
      .put(`/api/users/${created.body._id}`)
      .set(admin.auth)
      .send({ email: admin.email })
      .expect(409);

    const [update, create] = await entries('?limit=2');
    expect(create).toMatchObject({
      actor: { _id: admin.id, name: 'Audit Admin' },
      action: 'user.create',
      target: { type: 'user', _id: created.body._id, label: 'made-by-admin@example.com' },
      data: { name: 'Made By Admin', role: 'member' },
    });
    expect(update).toMatchObject({
      action: 'user.update',
      target: { type: 'user', _id: created.body._id, label: 'made-by-admin@example.com' },
      data: {
        name: { from: 'Made By Admin', to: 'Renamed By Admin' },
        role: { from: 'member', to: 'admin' },
        password: 'changed',
      },
    });
    const text = JSON.stringify([update, create]);
    expect(text).not.toContain('Vivid-Harbor-Lantern-42');
    expect(text).not.toContain('Quiet-Meadow-Compass-77');
    // The audit admin stays the only admin, as the next test needs.
    await ctx.api.delete(`/api/users/${created.body._id}`).set(admin.auth).expect(200);
  });

  it('records nothing for a refused change (same transaction)', async () => {
    const count = (await entries('?limit=500')).length;
    await ctx.api.patch(`/api/users/${admin.id}`).set(admin.auth).send({ active: false });
    expect((await entries('?limit=500')).length).toBe(count);
  });

  it('pages with a cursor and is for admins only', async () => {
    const first = await ctx.api.get('/api/audit?limit=2').set(admin.auth).expect(200);
    expect(first.body).toHaveLength(2);
    const cursor = first.headers['x-next-cursor'];
    expect(cursor).toEqual(expect.any(String));
    const next = await ctx.api
      .get(`/api/audit?limit=2&cursor=${cursor}`)
      .set(admin.auth)
      .expect(200);
    expect(next.body[0]._id).not.toBe(first.body[1]._id);
    const member = await signUp(ctx);
    await ctx.api.get('/api/audit').set(member.auth).expect(403);
    await ctx.api.get('/api/audit').expect(401);
  });
});
