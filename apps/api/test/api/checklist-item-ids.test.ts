import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Activity, Task } from '@task-manager/shared';
import { createTask, signUp, type Session } from '../helpers/factories.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

/**
 * The task form sends its checklist with the ids of the items it loaded, so that a rename or a
 * move in one PUT /api/tasks/:id (guarded by If-Match) keeps each item's id, tick and author.
 */
describe(`PUT /api/tasks/:id with checklist item ids (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;
  let member: Session;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
    member = await signUp(ctx, 'member');
  });
  afterAll(() => ctx.close());

  it('renamed and moved items keep their id and tick; the history says renamed, not removed', async () => {
    const task = await createTask(ctx, admin, [member.id], {
      todoChecklist: [{ text: 'Draft' }, { text: 'Review' }, { text: 'Ship' }],
    });
    const [draft, review, ship] = task.todoChecklist;
    await ctx.api
      .patch(`/api/tasks/${task._id}/todo/${draft!._id}`)
      .set(member.auth)
      .send({ completed: true })
      .expect(200);
    const added = await ctx.api
      .post(`/api/tasks/${task._id}/todo`)
      .set(member.auth)
      .send({ text: 'Mine' })
      .expect(201);
    const current = added.body.task as Task;
    const mine = current.todoChecklist.at(-1)!;

    const res = await ctx.api
      .put(`/api/tasks/${task._id}`)
      .set(admin.auth)
      .set('If-Match', `"${current.updatedAt}"`)
      .send({
        todoChecklist: [
          { _id: review!._id, text: 'Review' },
          { _id: draft!._id, text: 'First draft' },
          { _id: mine._id, text: 'Mine' },
          { text: 'New one' },
        ],
      })
      .expect(200);
    const after = (res.body.task as Task).todoChecklist;
    expect(after.map((item) => [item._id, item.text, item.completed])).toEqual([
      [review!._id, 'Review', false],
      [draft!._id, 'First draft', true],
      [mine._id, 'Mine', false],
      [expect.any(String), 'New one', false],
    ]);
    expect(after.some((item) => item._id === ship!._id)).toBe(false);

    // The member still renames the item they added: its author stayed with its id.
    await ctx.api
      .put(`/api/tasks/${task._id}/todo/${mine._id}`)
      .set(member.auth)
      .send({ text: 'Still mine' })
      .expect(200);

    const history = (await ctx.api.get(`/api/tasks/${task._id}/activity`).set(admin.auth))
      .body as Activity[];
    const types = history.map((entry) => [entry.type, entry.data.itemId]);
    expect(types).toContainEqual(['checklist.renamed', draft!._id]);
    expect(types).toContainEqual(['checklist.removed', ship!._id]);
    expect(types).not.toContainEqual(['checklist.removed', draft!._id]);
  });

  it('an unknown id falls back to the text rule', async () => {
    const task = await createTask(ctx, admin, [member.id], {
      todoChecklist: [{ text: 'Draft', completed: true }],
    });
    const res = await ctx.api
      .put(`/api/tasks/${task._id}`)
      .set(admin.auth)
      .send({ todoChecklist: [{ _id: 'not-an-item', text: 'Draft' }] })
      .expect(200);
    expect((res.body.task as Task).todoChecklist[0]).toMatchObject({
      _id: task.todoChecklist[0]!._id,
      completed: true,
    });
  });
});
