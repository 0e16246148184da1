import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages, validationMessages, type Task } from '@task-manager/shared';
import { createTask, signUp, type Session } from '../helpers/factories.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

const notFoundBody = { message: apiMessages.taskNotFound, code: 'not_found' };

type Item = { _id: string; text: string; completed: boolean };

/** The task's checklist as sent back by a client, with the given completed flags. */
const flags = (task: Task, completed: boolean[]) =>
  task.todoChecklist.map((item, index) => ({
    text: item.text,
    completed: completed[index] ?? false,
  }));

const threeItems = [
  { text: 'Draft', completed: false },
  { text: 'Review', completed: false },
  { text: 'Publish', completed: false },
];

describe(`task checklist and status (${ENGINE})`, () => {
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
  const putTodo = (session: Session, id: string, body: unknown) =>
    ctx.api
      .put(`/api/tasks/${id}/todo`)
      .set(session.auth)
      .send(body as object);
  const putStatus = (session: Session, id: string, body: unknown) =>
    ctx.api
      .put(`/api/tasks/${id}/status`)
      .set(session.auth)
      .send(body as object);
  const fetchTask = async (id: string) =>
    (await ctx.api.get(`/api/tasks/${id}`).set(admin.auth).expect(200)).body as Task;

  describe('PUT /api/tasks/:id/todo', () => {
    it('lets an assigned member tick items: progress, status and done count follow', async () => {
      const task = await newTask();
      const steps: Array<[boolean[], number, string, number]> = [
        [[true, false, false], 33, 'In Progress', 1],
        [[true, false, true], 67, 'In Progress', 2],
        [[true, true, true], 100, 'Completed', 3],
        [[false, true, true], 67, 'In Progress', 2],
        [[false, false, false], 0, 'Pending', 0],
      ];
      for (const [completed, progress, status, done] of steps) {
        const res = await putTodo(member, task._id, {
          todoChecklist: flags(task, completed),
        }).expect(200);
        expect(res.body.message).toBe(apiMessages.checklistUpdated);
        expect(res.body.task).toMatchObject({ progress, status, completedTodoCount: done });
        // The same items keep their ids: only the flags change.
        expect(res.body.task.todoChecklist).toEqual(
          task.todoChecklist.map((item, index) => ({ ...item, completed: completed[index] })),
        );
        const stored = await fetchTask(task._id);
        expect(stored).toEqual(res.body.task);
      }
    });

    it('rounds progress to whole percent', async () => {
      const task = await createTask(ctx, admin, [member.id], {
        todoChecklist: ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((text) => ({ text })),
      });
      const res = await putTodo(member, task._id, {
        todoChecklist: flags(task, [true, false, false, false, false, false, false]),
      }).expect(200);
      // 1/7 = 14.28…%
      expect(res.body.task).toMatchObject({
        progress: 14,
        status: 'In Progress',
        completedTodoCount: 1,
      });
      const most = await putTodo(member, task._id, {
        todoChecklist: flags(task, [true, true, true, true, true, true, false]),
      }).expect(200);
      // 6/7 = 85.71…%
      expect(most.body.task).toMatchObject({
        progress: 86,
        status: 'In Progress',
        completedTodoCount: 6,
      });
    });

    it('keeps the current flag of an item sent without one', async () => {
      const task = await createTask(ctx, admin, [member.id], {
        todoChecklist: [
          { text: 'Draft', completed: true },
          { text: 'Review', completed: false },
        ],
      });
      const res = await putTodo(member, task._id, {
        todoChecklist: [{ text: 'Draft' }, { text: 'Review', completed: true }],
      }).expect(200);
      expect(res.body.task.todoChecklist.map((item: Item) => item.completed)).toEqual([true, true]);
      expect(res.body.task).toMatchObject({ progress: 100, status: 'Completed' });
    });

    it('shows the change in the task list and its summary', async () => {
      const watcher = await signUp(ctx, 'member');
      const task = await createTask(ctx, admin, [watcher.id], { todoChecklist: threeItems });
      await putTodo(watcher, task._id, { todoChecklist: flags(task, [true, true, true]) }).expect(
        200,
      );
      const res = await ctx.api.get('/api/tasks').set(watcher.auth).expect(200);
      expect(res.body.tasks[0]).toMatchObject({
        _id: task._id,
        status: 'Completed',
        progress: 100,
      });
      expect(res.body.statusSummary).toEqual({
        all: 1,
        pendingTasks: 0,
        inProgressTasks: 0,
        completedTasks: 1,
      });
    });

    describe('a member may only tick or untick', () => {
      const edits: Array<[string, (task: Task) => Array<{ text: string; completed?: boolean }>]> = [
        [
          'changing a text',
          (task) => [{ text: 'Draft v2', completed: true }, ...flags(task, []).slice(1)],
        ],
        ['adding an item', (task) => [...flags(task, [true]), { text: 'Extra', completed: false }]],
        ['removing an item', (task) => flags(task, [true]).slice(0, 2)],
        ['reordering items', (task) => flags(task, [true]).reverse()],
      ];

      it.each(edits)('refuses %s with 400 and leaves the task alone', async (_name, edit) => {
        const task = await newTask();
        const res = await putTodo(member, task._id, { todoChecklist: edit(task) }).expect(400);
        expect(res.body).toEqual({
          message: apiMessages.checklistMemberChange,
          code: expect.any(String),
        });
        expect(await fetchTask(task._id)).toEqual(task);
      });
    });

    it('lets an admin rename, add, remove and reorder items, keeping flags of matching texts', async () => {
      const task = await createTask(ctx, admin, [member.id], {
        todoChecklist: [
          { text: 'Draft', completed: true },
          { text: 'Review', completed: false },
          { text: 'Publish', completed: false },
        ],
      });
      const [draft, review] = task.todoChecklist;
      const res = await putTodo(admin, task._id, {
        todoChecklist: [{ text: 'Review' }, { text: 'Polish' }, { text: 'Draft' }],
      }).expect(200);
      expect(res.body.message).toBe(apiMessages.checklistUpdated);
      expect(res.body.task.todoChecklist).toEqual([
        { _id: review?._id, text: 'Review', completed: false },
        { _id: expect.any(String), text: 'Polish', completed: false },
        { _id: draft?._id, text: 'Draft', completed: true },
      ]);
      expect(res.body.task).toMatchObject({
        progress: 33,
        status: 'In Progress',
        completedTodoCount: 1,
      });

      const shorter = await putTodo(admin, task._id, {
        todoChecklist: [{ text: 'Draft' }, { text: 'Ship', completed: true }],
      }).expect(200);
      expect(
        shorter.body.task.todoChecklist.map((item: Item) => [item.text, item.completed]),
      ).toEqual([
        ['Draft', true],
        ['Ship', true],
      ]);
      expect(shorter.body.task).toMatchObject({
        progress: 100,
        status: 'Completed',
        completedTodoCount: 2,
      });
      expect(await fetchTask(task._id)).toEqual(shorter.body.task);
      const rows = await ctx.db
        .selectFrom('todo_items')
        .select('text')
        .where('task_id', '=', task._id)
        .execute();
      expect(rows.map((row) => row.text).sort()).toEqual(['Draft', 'Ship']);
    });

    it('lets an admin tick items of a task assigned to others', async () => {
      const task = await newTask();
      const res = await putTodo(admin, task._id, {
        todoChecklist: flags(task, [false, true, false]),
      }).expect(200);
      expect(res.body.task).toMatchObject({
        progress: 33,
        status: 'In Progress',
        completedTodoCount: 1,
      });
    });

    it('answers an unassigned member 404, as for an unknown or malformed id', async () => {
      const task = await newTask();
      const hidden = await putTodo(outsider, task._id, {
        todoChecklist: flags(task, [true]),
      }).expect(404);
      expect(hidden.body).toEqual(notFoundBody);
      expect(await fetchTask(task._id)).toEqual(task);
      const unknown = await putTodo(admin, randomUUID(), { todoChecklist: threeItems }).expect(404);
      expect(unknown.body).toEqual(notFoundBody);
      const malformed = await putTodo(member, 'not-a-task-id', {
        todoChecklist: threeItems,
      }).expect(404);
      expect(malformed.body).toEqual(notFoundBody);
    });

    it('validates the checklist', async () => {
      const task = await newTask();
      const cases: Array<[unknown, string, string]> = [
        [{}, 'todoChecklist', validationMessages.todoRequired],
        [{ todoChecklist: [] }, 'todoChecklist', validationMessages.todoRequired],
        [{ todoChecklist: 'Draft' }, 'todoChecklist', validationMessages.todoRequired],
        [
          { todoChecklist: [{ text: '  ', completed: true }] },
          'todoChecklist.0.text',
          validationMessages.todoTextBlank,
        ],
        [
          { todoChecklist: [{ completed: true }] },
          'todoChecklist.0.text',
          validationMessages.todoTextBlank,
        ],
      ];
      for (const [body, path, message] of cases) {
        const res = await putTodo(admin, task._id, body).expect(400);
        expect(res.body).toEqual({
          message,
          errors: [{ path, message }],
          code: expect.any(String),
        });
      }
      const notBoolean = await putTodo(member, task._id, {
        todoChecklist: [{ text: 'Draft', completed: 'yes' }, ...flags(task, []).slice(1)],
      }).expect(400);
      expect(notBoolean.body.errors).toEqual([
        { path: 'todoChecklist.0.completed', message: expect.any(String) },
      ]);
      expect(await fetchTask(task._id)).toEqual(task);
    });

    it('needs a token', async () => {
      const task = await newTask();
      const res = await ctx.api
        .put(`/api/tasks/${task._id}/todo`)
        .send({ todoChecklist: threeItems })
        .expect(401);
      expect(res.body).toEqual({ message: apiMessages.notAuthorized, code: expect.any(String) });
    });
  });

  describe('PUT /api/tasks/:id/status', () => {
    it('Completed ticks every item; Pending unticks every item', async () => {
      const task = await createTask(ctx, admin, [member.id], {
        todoChecklist: [
          { text: 'Draft', completed: true },
          { text: 'Review', completed: false },
          { text: 'Publish', completed: false },
        ],
      });
      const done = await putStatus(member, task._id, { status: 'Completed' }).expect(200);
      expect(done.body.message).toBe(apiMessages.statusUpdated);
      expect(done.body.task).toMatchObject({
        status: 'Completed',
        progress: 100,
        completedTodoCount: 3,
      });
      expect(done.body.task.todoChecklist).toEqual(
        task.todoChecklist.map((item) => ({ ...item, completed: true })),
      );
      expect(await fetchTask(task._id)).toEqual(done.body.task);

      const reset = await putStatus(admin, task._id, { status: 'Pending' }).expect(200);
      expect(reset.body.task).toMatchObject({
        status: 'Pending',
        progress: 0,
        completedTodoCount: 0,
      });
      expect(reset.body.task.todoChecklist).toEqual(
        task.todoChecklist.map((item) => ({ ...item, completed: false })),
      );
      expect(await fetchTask(task._id)).toEqual(reset.body.task);
      const flagsInDb = await ctx.db
        .selectFrom('todo_items')
        .select('completed')
        .where('task_id', '=', task._id)
        .execute();
      expect(flagsInDb.map((row) => Number(row.completed))).toEqual([0, 0, 0]);
    });

    it('accepts In Progress unless every item is done (decision 007)', async () => {
      const task = await newTask();
      const started = await putStatus(member, task._id, { status: 'In Progress' }).expect(200);
      expect(started.body.task).toMatchObject({
        status: 'In Progress',
        progress: 0,
        completedTodoCount: 0,
        todoChecklist: task.todoChecklist,
      });

      await putStatus(member, task._id, { status: 'Completed' }).expect(200);
      const fromCompleted = await putStatus(member, task._id, { status: 'In Progress' }).expect(
        400,
      );
      expect(fromCompleted.body).toEqual({
        message: apiMessages.statusNeedsOpenItem,
        code: expect.any(String),
      });
      expect((await fetchTask(task._id)).status).toBe('Completed');

      const partial = await putTodo(member, task._id, {
        todoChecklist: flags(task, [true, false, true]),
      }).expect(200);
      const res = await putStatus(member, task._id, { status: 'In Progress' }).expect(200);
      expect(res.body.task).toMatchObject({
        status: 'In Progress',
        progress: 67,
        completedTodoCount: 2,
      });
      expect(res.body.task.todoChecklist).toEqual(partial.body.task.todoChecklist);
    });

    it('gives an empty checklist (old data) the status asked for', async () => {
      const task = await newTask();
      await ctx.db.deleteFrom('todo_items').where('task_id', '=', task._id).execute();
      const res = await putStatus(admin, task._id, { status: 'Completed' }).expect(200);
      expect(res.body.task).toMatchObject({
        status: 'Completed',
        progress: 100,
        completedTodoCount: 0,
        todoChecklist: [],
      });
      const started = await putStatus(member, task._id, { status: 'In Progress' }).expect(200);
      expect(started.body.task).toMatchObject({
        status: 'In Progress',
        progress: 0,
        todoChecklist: [],
      });
      const back = await putStatus(admin, task._id, { status: 'Pending' }).expect(200);
      expect(back.body.task).toMatchObject({ status: 'Pending', progress: 0, todoChecklist: [] });
    });

    it.each([
      [{ status: 'Done' }],
      [{ status: 'completed' }],
      [{ status: '' }],
      [{}],
      [{ status: 1 }],
    ])('rejects %j with 400', async (body) => {
      const task = await newTask();
      const res = await putStatus(member, task._id, body).expect(400);
      expect(res.body).toEqual({
        message: validationMessages.invalidStatus,
        errors: [{ path: 'status', message: validationMessages.invalidStatus }],
        code: expect.any(String),
      });
      expect(await fetchTask(task._id)).toEqual(task);
    });

    it('answers an unassigned member 404, as for an unknown or malformed id', async () => {
      const task = await newTask();
      const hidden = await putStatus(outsider, task._id, { status: 'Completed' }).expect(404);
      expect(hidden.body).toEqual(notFoundBody);
      expect(await fetchTask(task._id)).toEqual(task);
      const unknown = await putStatus(admin, randomUUID(), { status: 'Completed' }).expect(404);
      expect(unknown.body).toEqual(notFoundBody);
      const malformed = await putStatus(admin, 'not-a-task-id', { status: 'Completed' }).expect(
        404,
      );
      expect(malformed.body).toEqual(notFoundBody);
    });

    it('needs a token', async () => {
      const task = await newTask();
      const res = await ctx.api
        .put(`/api/tasks/${task._id}/status`)
        .send({ status: 'Completed' })
        .expect(401);
      expect(res.body).toEqual({ message: apiMessages.notAuthorized, code: expect.any(String) });
    });
  });
});
