import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages, validationMessages, type Activity, type Task } from '@task-manager/shared';
import { createTask, signUp, type Session } from '../helpers/factories.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

describe(`checklist editing (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;
  let member: Session;
  let teammate: Session;
  let outsider: Session;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
    member = await signUp(ctx, 'member');
    teammate = await signUp(ctx, 'member');
    outsider = await signUp(ctx, 'member');
  });
  afterAll(() => ctx.close());

  const newTask = () => createTask(ctx, admin, [member.id, teammate.id]);
  const add = (session: Session, taskId: string, body: object) =>
    ctx.api.post(`/api/tasks/${taskId}/todo`).set(session.auth).send(body);
  const rename = (session: Session, taskId: string, itemId: string, text: unknown) =>
    ctx.api.put(`/api/tasks/${taskId}/todo/${itemId}`).set(session.auth).send({ text });
  const history = async (taskId: string) =>
    (await ctx.api.get(`/api/tasks/${taskId}/activity`).set(admin.auth)).body as Activity[];

  it('assignees and admins add items at the end, not done; progress follows', async () => {
    const task = await newTask();
    const tick = task.todoChecklist[0]!;
    await ctx.api
      .patch(`/api/tasks/${task._id}/todo/${tick._id}`)
      .set(member.auth)
      .send({ completed: true })
      .expect(200);
    const res = await add(member, task._id, { text: '  Proofread  ' }).expect(201);
    expect(res.body.message).toBe(apiMessages.checklistItemAdded);
    const after = res.body.task as Task;
    expect(after.todoChecklist.map((item) => [item.text, item.completed])).toEqual([
      ['Draft', true],
      ['Review', false],
      ['Proofread', false],
    ]);
    // The spec's item shape, unchanged.
    expect(Object.keys(after.todoChecklist[2]!).sort()).toEqual(['_id', 'completed', 'text']);
    expect(after.progress).toBe(33);
    await add(admin, task._id, { text: 'Ship' }).expect(201);
    await add(outsider, task._id, { text: 'Sneak' }).expect(404);
    const blank = await add(member, task._id, { text: ' ' }).expect(400);
    expect(blank.body.errors[0]).toMatchObject({
      path: 'text',
      message: validationMessages.todoTextBlank,
    });
    await add(member, task._id, { text: 'x'.repeat(501) }).expect(400);
    expect((await history(task._id)).at(-1)).toMatchObject({
      type: 'checklist.added',
      actor: { _id: admin.id },
      data: { text: 'Ship' },
    });
  });

  it('renaming keeps the tick and the id; admins rename any item', async () => {
    const task = await newTask();
    const [draft] = task.todoChecklist;
    await ctx.api
      .patch(`/api/tasks/${task._id}/todo/${draft!._id}`)
      .set(member.auth)
      .send({ completed: true })
      .expect(200);
    const res = await rename(admin, task._id, draft!._id, 'First draft').expect(200);
    const renamed = (res.body.task as Task).todoChecklist[0]!;
    expect(renamed).toMatchObject({ _id: draft!._id, text: 'First draft', completed: true });
    expect(res.body.task.progress).toBe(50);
    expect((await history(task._id)).at(-1)).toMatchObject({
      type: 'checklist.renamed',
      data: { itemId: draft!._id, before: 'Draft', after: 'First draft' },
    });
  });

  it('an assignee renames the items they added, not the others', async () => {
    const task = await newTask();
    const added = (await add(member, task._id, { text: 'Mine' }).expect(201)).body.task as Task;
    const mine = added.todoChecklist.at(-1)!;
    await rename(member, task._id, mine._id, 'Still mine').expect(200);
    const forbidden = await rename(teammate, task._id, mine._id, 'Taken').expect(403);
    expect(forbidden.body.message).toBe(apiMessages.checklistRenameForbidden);
    await rename(member, task._id, added.todoChecklist[0]!._id, 'Not mine').expect(403);
    await rename(outsider, task._id, mine._id, 'Outside').expect(404);
    await rename(member, task._id, randomUUID(), 'Nothing').expect(404);
    await rename(member, task._id, mine._id, '').expect(400);
  });

  it('admins reorder the items; ticks stay; members may not', async () => {
    const task = await createTask(ctx, admin, [member.id], {
      todoChecklist: [{ text: 'A' }, { text: 'B', completed: true }, { text: 'C' }],
    });
    const [a, b, c] = task.todoChecklist.map((item) => item._id);
    const res = await ctx.api
      .put(`/api/tasks/${task._id}/todo/order`)
      .set(admin.auth)
      .send({ ids: [c, a, b] })
      .expect(200);
    expect(
      (res.body.task as Task).todoChecklist.map((item) => [item.text, item.completed]),
    ).toEqual([
      ['C', false],
      ['A', false],
      ['B', true],
    ]);
    expect((await history(task._id)).at(-1)).toMatchObject({
      type: 'checklist.reordered',
      data: { itemIds: [c, a, b] },
    });
    await ctx.api
      .put(`/api/tasks/${task._id}/todo/order`)
      .set(member.auth)
      .send({ ids: [a, b, c] })
      .expect(403);
    for (const ids of [
      [a, b],
      [a, b, b],
      [a, b, randomUUID()],
      [a, b, c, randomUUID()],
    ]) {
      const bad = await ctx.api
        .put(`/api/tasks/${task._id}/todo/order`)
        .set(admin.auth)
        .send({ ids })
        .expect(400);
      expect(bad.body.errors[0].path).toBe('ids');
    }
  });

  it("the spec's PUT /todo keeps its exact behaviour (text match keeps the tick)", async () => {
    const task = await newTask();
    await ctx.api
      .put(`/api/tasks/${task._id}/todo`)
      .set(admin.auth)
      .send({ todoChecklist: [{ text: 'Review', completed: true }, { text: 'Draft' }] })
      .expect(200);
    const res = await ctx.api
      .put(`/api/tasks/${task._id}/todo`)
      .set(admin.auth)
      .send({ todoChecklist: [{ text: 'Review' }, { text: 'New' }] })
      .expect(200);
    expect(
      (res.body.task as Task).todoChecklist.map((item) => [item.text, item.completed]),
    ).toEqual([
      ['Review', true],
      ['New', false],
    ]);
    await ctx.api
      .put(`/api/tasks/${task._id}/todo`)
      .set(member.auth)
      .send({ todoChecklist: [{ text: 'Other' }] })
      .expect(400);
  });
});
