import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages, validationMessages } from '@task-manager/shared';
import { createTask, signUp, type Session } from '../helpers/factories.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

interface Listed {
  _id: string;
  role: string;
  active: boolean;
  pendingTasks: number;
  inProgressTasks: number;
  completedTasks: number;
}

describe(`running the team: roles, the last admin, deletion with reassignment (${ENGINE})`, () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  const lastAdmin = { message: apiMessages.lastAdmin, code: 'conflict' };

  async function listed(admin: Session, query = ''): Promise<Listed[]> {
    return (await ctx.api.get(`/api/users${query}`).set(admin.auth).expect(200)).body;
  }

  it('never leaves the team without an active admin: demote, deactivate, delete', async () => {
    const own = await createTestContext();
    try {
      const admin = await signUp(own, 'admin');
      const patch = (body: object) =>
        own.api.patch(`/api/users/${admin.id}`).set(admin.auth).send(body);
      expect((await patch({ role: 'member' }).expect(409)).body).toEqual(lastAdmin);
      expect((await patch({ active: false }).expect(409)).body).toEqual(lastAdmin);
      const deletion = await own.api.delete(`/api/users/${admin.id}`).set(admin.auth).expect(409);
      expect(deletion.body).toEqual(lastAdmin);

      // A second admin, deactivated, does not count: the first is still the last active one.
      const second = await signUp(own, 'admin');
      await own.api
        .patch(`/api/users/${second.id}`)
        .set(admin.auth)
        .send({ active: false })
        .expect(200);
      await patch({ role: 'member' }).expect(409);
      await own.api
        .patch(`/api/users/${second.id}`)
        .set(admin.auth)
        .send({ active: true })
        .expect(200);
      // With two active admins, one may step down.
      const demoted = await patch({ role: 'member' }).expect(200);
      expect(demoted.body.role).toBe('member');
      // Their session ended with the role change.
      await own.api.get('/api/auth/profile').set(admin.auth).expect(401);
    } finally {
      await own.close();
    }
  });

  it('filters the list by text, role and state, admins included', async () => {
    const admin = await signUp(ctx, 'admin', { name: 'Zed Filterable Admin' });
    const member = await signUp(ctx, 'member', { name: 'Zed Filterable Member' });
    const byText = await listed(admin, '?q=filterable');
    expect(byText.map((u) => u._id).sort()).toEqual([admin.id, member.id].sort());
    const admins = await listed(admin, '?q=filterable&role=admin');
    expect(admins.map((u) => u._id)).toEqual([admin.id]);
    const members = await listed(admin, '?q=FILTERABLE&role=member&active=true');
    expect(members.map((u) => u._id)).toEqual([member.id]);
    expect(await listed(admin, '?q=filterable&active=false')).toEqual([]);
    // The spec's `search` still works.
    expect((await listed(admin, '?search=filterable')).length).toBe(2);
  });

  it('moves every task of a deleted person to the one chosen, keeping counts exact', async () => {
    const admin = await signUp(ctx, 'admin');
    const leaving = await signUp(ctx);
    const heir = await signUp(ctx);
    const onlyLeaving = await createTask(ctx, admin, [leaving.id]);
    const both = await createTask(ctx, admin, [leaving.id, heir.id]);
    const onlyHeir = await createTask(ctx, admin, [heir.id]);
    await ctx.api
      .put(`/api/tasks/${onlyLeaving._id}/status`)
      .set(admin.auth)
      .send({ status: 'Completed' })
      .expect(200);
    const countsOf = async (id: string) => {
      const user = (await listed(admin)).find((u) => u._id === id)!;
      return [user.pendingTasks, user.inProgressTasks, user.completedTasks];
    };
    expect(await countsOf(heir.id)).toEqual([2, 0, 0]);

    await ctx.api
      .delete(`/api/users/${leaving.id}?reassignTo=${heir.id}`)
      .set(admin.auth)
      .expect(200);
    for (const task of [onlyLeaving, both, onlyHeir]) {
      const read = await ctx.api.get(`/api/tasks/${task._id}`).set(admin.auth).expect(200);
      expect(read.body.assignedTo.map((a: { _id: string }) => a._id)).toEqual([heir.id]);
    }
    // Three tasks, one completed; the shared one counted once.
    expect(await countsOf(heir.id)).toEqual([2, 0, 1]);
  });

  it('leaves the tasks without the deleted person when no one is chosen', async () => {
    const admin = await signUp(ctx, 'admin');
    const leaving = await signUp(ctx);
    const task = await createTask(ctx, admin, [leaving.id]);
    await ctx.api.delete(`/api/users/${leaving.id}`).set(admin.auth).expect(200);
    const read = await ctx.api.get(`/api/tasks/${task._id}`).set(admin.auth).expect(200);
    expect(read.body.assignedTo).toEqual([]);
  });

  it('refuses a reassignment to nobody, to a deactivated person or to the deleted one', async () => {
    const admin = await signUp(ctx, 'admin');
    const leaving = await signUp(ctx);
    const inactive = await signUp(ctx);
    const task = await createTask(ctx, admin, [leaving.id]);
    await ctx.api
      .patch(`/api/users/${inactive.id}`)
      .set(admin.auth)
      .send({ active: false })
      .expect(200);
    for (const target of [inactive.id, leaving.id, '00000000-0000-4000-8000-000000000000']) {
      const res = await ctx.api
        .delete(`/api/users/${leaving.id}?reassignTo=${target}`)
        .set(admin.auth)
        .expect(400);
      expect(res.body.errors[0].path).toBe('reassignTo');
    }
    await ctx.api.delete(`/api/users/${leaving.id}?reassignTo=nope`).set(admin.auth).expect(400);
    // Nothing happened: the person and their task are as they were.
    const read = await ctx.api.get(`/api/tasks/${task._id}`).set(admin.auth).expect(200);
    expect(read.body.assignedTo.map((a: { _id: string }) => a._id)).toEqual([leaving.id]);
  });

  it("hands a deactivated person's open tasks to the one chosen; finished work stays theirs", async () => {
    const admin = await signUp(ctx, 'admin');
    const leaving = await signUp(ctx);
    const heir = await signUp(ctx);
    const open = await createTask(ctx, admin, [leaving.id]);
    const shared = await createTask(ctx, admin, [leaving.id, heir.id]);
    const done = await createTask(ctx, admin, [leaving.id]);
    await ctx.api
      .put(`/api/tasks/${done._id}/status`)
      .set(admin.auth)
      .send({ status: 'Completed' })
      .expect(200);

    const res = await ctx.api
      .patch(`/api/users/${leaving.id}`)
      .set(admin.auth)
      .send({ active: false, reassignTo: heir.id })
      .expect(200);
    expect(res.body).toMatchObject({ _id: leaving.id, active: false });
    const assigneesOf = async (id: string) =>
      (await ctx.api.get(`/api/tasks/${id}`).set(admin.auth).expect(200)).body.assignedTo.map(
        (a: { _id: string }) => a._id,
      );
    expect(await assigneesOf(open._id)).toEqual([heir.id]);
    expect(await assigneesOf(shared._id)).toEqual([heir.id]);
    expect(await assigneesOf(done._id)).toEqual([leaving.id]);
    // The heir sees the handed-over tasks in their own list.
    const mine = await ctx.api.get('/api/tasks').set(heir.auth).expect(200);
    expect(mine.body.tasks.map((t: { _id: string }) => t._id).sort()).toEqual(
      [open._id, shared._id].sort(),
    );
    await ctx.api.get('/api/auth/profile').set(leaving.auth).expect(401);
    const audit = await ctx.api.get('/api/audit').set(admin.auth).expect(200);
    const entries = audit.body as { action: string; target: { _id: string }; data: unknown }[];
    const entry = entries.find(
      (e) => e.action === 'user.deactivate' && e.target._id === leaving.id,
    );
    expect(entry).toMatchObject({
      data: { reassignTo: heir.id, reassigned: 2 },
    });
  });

  it('refuses a handover without deactivating, to the person themself or to someone inactive', async () => {
    const admin = await signUp(ctx, 'admin');
    const leaving = await signUp(ctx);
    const inactive = await signUp(ctx);
    const heir = await signUp(ctx);
    const task = await createTask(ctx, admin, [leaving.id]);
    await ctx.api
      .patch(`/api/users/${inactive.id}`)
      .set(admin.auth)
      .send({ active: false })
      .expect(200);
    const patch = (body: object) =>
      ctx.api.patch(`/api/users/${leaving.id}`).set(admin.auth).send(body).expect(400);
    for (const body of [{ reassignTo: heir.id }, { active: true, reassignTo: heir.id }]) {
      const res = await patch(body);
      expect(res.body.errors[0]).toEqual({
        path: 'reassignTo',
        message: validationMessages.reassignOnlyWhenDeactivating,
      });
    }
    expect((await patch({ active: false, reassignTo: leaving.id })).body.message).toBe(
      apiMessages.reassignToDeactivated,
    );
    for (const target of [inactive.id, '00000000-0000-4000-8000-000000000000']) {
      const res = await patch({ active: false, reassignTo: target });
      expect(res.body.errors[0].path).toBe('reassignTo');
    }
    await patch({ active: false, reassignTo: 'nope' });
    // Nothing happened: still active, still on their task.
    await ctx.api.get('/api/auth/profile').set(leaving.auth).expect(200);
    const read = await ctx.api.get(`/api/tasks/${task._id}`).set(admin.auth).expect(200);
    expect(read.body.assignedTo.map((a: { _id: string }) => a._id)).toEqual([leaving.id]);
  });
});
