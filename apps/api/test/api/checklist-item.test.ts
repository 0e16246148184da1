import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages, validationMessages, type Task } from '@task-manager/shared';
import { createTask, signUp, type Session } from '../helpers/factories.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const threeItems = [
  { text: 'Draft', completed: false },
  { text: 'Review', completed: false },
  { text: 'Publish', completed: false },
];

describe(`PATCH /api/tasks/:id/todo/:itemId (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;
  let member: Session;
  let outsider: Session;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
    member = await signUp(ctx, 'member');
    outsider = await signUp(ctx, 'member');
  });
  afterAll(() => ctx.close());

  const newTask = () => createTask(ctx, admin, [member.id], { todoChecklist: threeItems });
  const patchItem = (
    session: Session | undefined,
    taskId: string,
    itemId: string,
    body: unknown,
  ) => {
    const req = ctx.api.patch(`/api/tasks/${taskId}/todo/${itemId}`);
    return (session ? req.set(session.auth) : req).send(body as object);
  };
  const fetchTask = async (id: string) =>
    (await ctx.api.get(`/api/tasks/${id}`).set(admin.auth).expect(200)).body as Task;
  const itemId = (task: Task, index: number) => task.todoChecklist[index]?._id ?? '';

  it('ticks and unticks one item; progress, status and done count follow', async () => {
    const task = await newTask();
    const steps: Array<[number, boolean, boolean[], number, string]> = [
      [0, true, [true, false, false], 33, 'In Progress'],
      [2, true, [true, false, true], 67, 'In Progress'],
      [1, true, [true, true, true], 100, 'Completed'],
      [0, false, [false, true, true], 67, 'In Progress'],
      [1, false, [false, false, true], 33, 'In Progress'],
      [2, false, [false, false, false], 0, 'Pending'],
    ];
    for (const [index, completed, flags, progress, status] of steps) {
      const res = await patchItem(member, task._id, itemId(task, index), { completed }).expect(200);
      // The same answer as the whole-list PUT: a message and the task as it now is.
      expect(res.body.message).toBe(apiMessages.checklistUpdated);
      expect(res.body.task).toMatchObject({
        _id: task._id,
        progress,
        status,
        completedTodoCount: flags.filter(Boolean).length,
      });
      expect(res.body.task.todoChecklist).toEqual(
        task.todoChecklist.map((item, i) => ({ ...item, completed: flags[i] })),
      );
      expect(await fetchTask(task._id)).toEqual(res.body.task);
    }
  });

  it('leaves an item as it is when asked for the state it already has', async () => {
    const task = await newTask();
    const first = await patchItem(member, task._id, itemId(task, 1), { completed: true });
    const again = await patchItem(member, task._id, itemId(task, 1), { completed: true });
    expect(again.status).toBe(200);
    expect(again.body.task.todoChecklist).toEqual(first.body.task.todoChecklist);
    expect(again.body.task).toMatchObject({ completedTodoCount: 1, progress: 33 });
    const untouched = await patchItem(member, task._id, itemId(task, 0), { completed: false });
    expect(untouched.body.task).toMatchObject({ completedTodoCount: 1, progress: 33 });
  });

  it('lets an admin tick an item of a task assigned to others', async () => {
    const task = await newTask();
    const res = await patchItem(admin, task._id, itemId(task, 2), { completed: true }).expect(200);
    expect(
      res.body.task.todoChecklist.map((item: { completed: boolean }) => item.completed),
    ).toEqual([false, false, true]);
  });

  it('loses no tick when every item is ticked at once', async () => {
    const task = await createTask(ctx, admin, [member.id], {
      todoChecklist: Array.from({ length: 20 }, (_, i) => ({ text: `Step ${i + 1}` })),
    });
    const answers = await Promise.all(
      task.todoChecklist.map((item) => patchItem(member, task._id, item._id, { completed: true })),
    );
    expect(answers.map((res) => res.status)).toEqual(answers.map(() => 200));
    const stored = await fetchTask(task._id);
    expect(stored.todoChecklist.every((item) => item.completed)).toBe(true);
    expect(stored).toMatchObject({ completedTodoCount: 20, progress: 100, status: 'Completed' });
  });

  describe('404', () => {
    const taskNotFound = { message: apiMessages.taskNotFound, code: 'not_found' };
    const itemNotFound = { message: apiMessages.checklistItemNotFound, code: 'not_found' };

    it('for a task the caller may not see, as for an unknown or malformed task id', async () => {
      const task = await newTask();
      const hidden = await patchItem(outsider, task._id, itemId(task, 0), { completed: true });
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual(taskNotFound);
      const unknown = await patchItem(admin, randomUUID(), itemId(task, 0), { completed: true });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(taskNotFound);
      const malformed = await patchItem(admin, 'not-a-task', itemId(task, 0), { completed: true });
      expect(malformed.status).toBe(404);
      expect(malformed.body).toEqual(taskNotFound);
      expect(await fetchTask(task._id)).toEqual(task);
    });

    it("for an unknown or malformed item id, or another task's item; nothing changes", async () => {
      const task = await newTask();
      const other = await newTask();
      for (const wrongItem of [randomUUID(), 'not-an-item', itemId(other, 0)]) {
        const res = await patchItem(member, task._id, wrongItem, { completed: true });
        expect(res.status).toBe(404);
        expect(res.body).toEqual(itemNotFound);
      }
      expect(await fetchTask(task._id)).toEqual(task);
      expect(await fetchTask(other._id)).toEqual(other);
    });
  });

  describe('validation: only {completed: boolean} is accepted, and nothing changes otherwise', () => {
    const notBoolean = {
      message: validationMessages.completedNotBoolean,
      code: 'bad_request',
      errors: [{ path: 'completed', message: validationMessages.completedNotBoolean }],
    };
    const onlyCompleted = {
      message: validationMessages.checklistItemOnlyCompleted,
      code: 'bad_request',
      errors: [{ path: '', message: validationMessages.checklistItemOnlyCompleted }],
    };
    const cases: Array<[string, unknown, unknown]> = [
      ['a string', { completed: 'true' }, notBoolean],
      ['a number', { completed: 1 }, notBoolean],
      ['null', { completed: null }, notBoolean],
      ['a list', { completed: [true] }, notBoolean],
      ['nothing', {}, notBoolean],
      ['a renamed text as well', { completed: true, text: 'Renamed' }, onlyCompleted],
      ['the whole item', { _id: randomUUID(), text: 'Draft', completed: true }, onlyCompleted],
      [
        'a whole checklist',
        { todoChecklist: threeItems },
        {
          message: validationMessages.completedNotBoolean,
          code: 'bad_request',
          errors: [notBoolean.errors[0], onlyCompleted.errors[0]],
        },
      ],
      [
        'an array body',
        [{ completed: true }],
        { message: apiMessages.bodyNotObject, code: 'bad_request' },
      ],
    ];

    it.each(cases)('refuses %s with 400', async (_name, body, answer) => {
      const task = await newTask();
      const res = await patchItem(member, task._id, itemId(task, 0), body).expect(400);
      expect(res.body).toEqual(answer);
      expect(await fetchTask(task._id)).toEqual(task);
    });

    it('refuses malformed JSON with 400', async () => {
      const task = await newTask();
      const res = await ctx.api
        .patch(`/api/tasks/${task._id}/todo/${itemId(task, 0)}`)
        .set(member.auth)
        .set('Content-Type', 'application/json')
        .send('{"completed": tru')
        .expect(400);
      expect(res.body).toEqual({ message: apiMessages.malformedJson, code: expect.any(String) });
    });
  });

  it('needs a token', async () => {
    const task = await newTask();
    const res = await patchItem(undefined, task._id, itemId(task, 0), { completed: true });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: apiMessages.notAuthorized, code: expect.any(String) });
    expect(await fetchTask(task._id)).toEqual(task);
  });
});

describe(`checklist item ids in answers (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;
  let member: Session;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
    member = await signUp(ctx, 'member');
  });
  afterAll(() => ctx.close());

  const expectItemIds = (tasks: Task[]) => {
    expect(tasks.length).toBeGreaterThan(0);
    for (const task of tasks) {
      expect(task.todoChecklist.length).toBeGreaterThan(0);
      for (const item of task.todoChecklist) expect(item._id).toMatch(UUID);
    }
  };

  it('every checklist item of every task answer carries its _id', async () => {
    const task = await createTask(ctx, admin, [member.id], { todoChecklist: threeItems });
    expectItemIds([task]);
    const updated = await ctx.api
      .put(`/api/tasks/${task._id}`)
      .set(admin.auth)
      .send({ todoChecklist: [...threeItems, { text: 'Ship' }] })
      .expect(200);
    expectItemIds([updated.body.task]);
    const one = await ctx.api.get(`/api/tasks/${task._id}`).set(member.auth).expect(200);
    expectItemIds([one.body]);
    const list = await ctx.api.get('/api/tasks').set(member.auth).expect(200);
    expectItemIds(list.body.tasks);
    const adminBoard = await ctx.api.get('/api/tasks/dashboard-data').set(admin.auth).expect(200);
    expectItemIds(adminBoard.body.recentTasks);
    const memberBoard = await ctx.api
      .get('/api/tasks/user-dashboard-data')
      .set(member.auth)
      .expect(200);
    expectItemIds(memberBoard.body.recentTasks);
    const status = await ctx.api
      .put(`/api/tasks/${task._id}/status`)
      .set(member.auth)
      .send({ status: 'Completed' })
      .expect(200);
    expectItemIds([status.body.task]);
  });

  it('accepts items sent back to PUT /todo with or without their _id', async () => {
    const task = await createTask(ctx, admin, [member.id], { todoChecklist: threeItems });
    const withIds = task.todoChecklist.map((item, i) => ({ ...item, completed: i === 0 }));
    const res = await ctx.api
      .put(`/api/tasks/${task._id}/todo`)
      .set(member.auth)
      .send({ todoChecklist: withIds })
      .expect(200);
    expect(res.body.task.todoChecklist).toEqual(withIds);
    const withoutIds = withIds.map(({ text }) => ({ text, completed: true }));
    const all = await ctx.api
      .put(`/api/tasks/${task._id}/todo`)
      .set(member.auth)
      .send({ todoChecklist: withoutIds })
      .expect(200);
    expect(all.body.task.todoChecklist).toEqual(
      withIds.map((item) => ({ ...item, completed: true })),
    );
  });
});
