import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages } from '@task-manager/shared';
import { createTask, signUp, type Session } from '../helpers/factories.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

describe(`deactivating a person (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
  });
  afterAll(() => ctx.close());

  const change = (id: string, body: object, by: Session = admin) =>
    ctx.api.patch(`/api/users/${id}`).set(by.auth).send(body);

  it("ends the person's open session at their next request", async () => {
    const member = await signUp(ctx);
    await ctx.api.get('/api/auth/profile').set(member.auth).expect(200);
    const res = await change(member.id, { active: false }).expect(200);
    expect(res.body).toMatchObject({ _id: member.id, active: false });
    const refused = await ctx.api.get('/api/tasks').set(member.auth).expect(401);
    expect(refused.body.code).toBe('account_deactivated');
  });

  it('refuses their sign-in with a clear code, and lets them in again once reactivated', async () => {
    const member = await signUp(ctx);
    await change(member.id, { active: false }).expect(200);
    const login = () =>
      ctx.api.post('/api/auth/login').send({ email: member.email, password: member.password });
    const refused = await login().expect(403);
    expect(refused.body).toEqual({
      message: apiMessages.accountDeactivated,
      code: 'account_deactivated',
    });
    // A wrong password says nothing about the account's state.
    const wrong = await ctx.api
      .post('/api/auth/login')
      .send({ email: member.email, password: 'not-the-password' })
      .expect(401);
    expect(wrong.body.code).toBe('unauthorized');
    await change(member.id, { active: true }).expect(200);
    const back = await login().expect(200);
    await ctx.api
      .get('/api/auth/profile')
      .set({ Authorization: `Bearer ${back.body.token}` })
      .expect(200);
  });

  it('keeps them on their tasks with a mark, and out of the assignee choices', async () => {
    const member = await signUp(ctx);
    const other = await signUp(ctx);
    const task = await createTask(ctx, admin, [member.id, other.id]);
    await change(member.id, { active: false }).expect(200);
    const read = await ctx.api.get(`/api/tasks/${task._id}`).set(admin.auth).expect(200);
    const marked = read.body.assignedTo.find((a: { _id: string }) => a._id === member.id);
    expect(marked).toMatchObject({ _id: member.id, deactivated: true });
    const kept = read.body.assignedTo.find((a: { _id: string }) => a._id === other.id);
    expect(kept).not.toHaveProperty('deactivated');

    const picker = await ctx.api.get('/api/users?active=true').set(admin.auth).expect(200);
    const ids = picker.body.map((u: { _id: string }) => u._id);
    expect(ids).not.toContain(member.id);
    expect(ids).toContain(other.id);
    const inactive = await ctx.api.get('/api/users?active=false').set(admin.auth).expect(200);
    expect(inactive.body.map((u: { _id: string }) => u._id)).toContain(member.id);

    // A new task cannot be given to them; an edit of this one may keep them.
    const refused = await ctx.api
      .post('/api/tasks')
      .set(admin.auth)
      .send({ ...(await import('../helpers/factories.js')).buildTask([member.id]) })
      .expect(400);
    expect(refused.body.errors[0].path).toBe('assignedTo');
    await ctx.api
      .put(`/api/tasks/${task._id}`)
      .set(admin.auth)
      .send({ assignedTo: [member.id, other.id], title: 'Still theirs' })
      .expect(200);
  });

  it('lets admins be assigned tasks', async () => {
    const task = await createTask(ctx, admin, [admin.id]);
    expect(task.assignedTo.map((a) => a._id)).toEqual([admin.id]);
  });

  it('refuses bad input with a 400 naming the field', async () => {
    const member = await signUp(ctx);
    const res = await change(member.id, { active: 'no' }).expect(400);
    expect(res.body.errors[0].path).toBe('active');
    await change(member.id, {}).expect(400);
    await change(member.id, { role: 'owner' }).expect(400);
    await ctx.api.get('/api/users?active=maybe').set(admin.auth).expect(400);
  });

  it('is for admins only', async () => {
    const member = await signUp(ctx);
    const other = await signUp(ctx);
    await change(other.id, { active: false }, member).expect(403);
    await ctx.api.patch(`/api/users/${other.id}`).send({ active: false }).expect(401);
  });
});
