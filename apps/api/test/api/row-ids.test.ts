import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '@task-manager/shared';
import { createTask, signUp, type Session } from '../helpers/factories.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

/** A UUID of version 7 (RFC 9562): time-ordered, as db/row-ids.ts gives new rows. */
const TIME_ORDERED = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * New tasks, checklist items, links, comments, history entries and notifications take
 * time-ordered ids, so that each table's key index grows at its end instead of on a random page
 * (docs/performance.md). The ids stay UUIDs: the shared schemas' `z.uuid()` accepts them.
 */
describe(`row ids (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;
  let member: Session;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
    member = await signUp(ctx, 'member');
  });
  afterAll(() => ctx.close());

  it('gives a new task, its items, links, comments and history time-ordered ids', async () => {
    const first = await createTask(ctx, admin, [member.id], {
      todoChecklist: [{ text: 'One' }, { text: 'Two' }],
    });
    // Made later: its id sorts after the first task's (the first 48 bits are milliseconds).
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await createTask(ctx, admin, [member.id], {
      todoChecklist: [{ text: 'Three' }],
    });
    expect(first._id).toMatch(TIME_ORDERED);
    expect(second._id).toMatch(TIME_ORDERED);
    expect(second._id > first._id).toBe(true);
    for (const item of [...first.todoChecklist, ...second.todoChecklist]) {
      expect(item._id).toMatch(TIME_ORDERED);
    }

    // An item added later, and a comment, the same way; the task is read back by its new id.
    const added = (
      await ctx.api
        .post(`/api/tasks/${first._id}/todo`)
        .set(member.auth)
        .send({ text: 'Four' })
        .expect(201)
    ).body.task as Task;
    const four = added.todoChecklist.find((item) => item.text === 'Four')!;
    expect(four._id).toMatch(TIME_ORDERED);
    expect(four._id > first.todoChecklist[1]!._id).toBe(true);
    const comment = (
      await ctx.api
        .post(`/api/tasks/${first._id}/comments`)
        .set(member.auth)
        .send({ body: 'Started on it' })
        .expect(201)
    ).body as { _id: string };
    expect(comment._id).toMatch(TIME_ORDERED);
    await ctx.api.get(`/api/tasks/${first._id}`).set(member.auth).expect(200);

    const history = (
      await ctx.api.get(`/api/tasks/${first._id}/activity`).set(admin.auth).expect(200)
    ).body as Array<{ _id: string }>;
    expect(history.length).toBeGreaterThan(2);
    for (const entry of history) expect(entry._id).toMatch(TIME_ORDERED);

    // The member was told of the assignment by a notification with such an id too.
    const notifications = (await ctx.api.get('/api/notifications').set(member.auth).expect(200))
      .body as { items: Array<{ _id: string }> };
    expect(notifications.items.length).toBeGreaterThan(0);
    for (const notification of notifications.items) expect(notification._id).toMatch(TIME_ORDERED);
  });
});
