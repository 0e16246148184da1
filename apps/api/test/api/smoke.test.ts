import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTask, signUp } from '../helpers/factories.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

describe(`smoke (${ENGINE})`, () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('signs up an admin, creates a task for a member, and the member sees it', async () => {
    const admin = await signUp(ctx, 'admin');
    const member = await signUp(ctx);
    expect(admin.user.role).toBe('admin');
    expect(member.user.role).toBe('member');
    const task = await createTask(ctx, admin, [member.id]);
    const res = await ctx.api.get('/api/tasks/').set(member.auth).expect(200);
    expect(res.body.tasks.map((t: { _id: string }) => t._id)).toEqual([task._id]);
    expect(res.body.statusSummary).toEqual({
      all: 1,
      pendingTasks: 1,
      inProgressTasks: 0,
      completedTasks: 0,
    });
  });
});
