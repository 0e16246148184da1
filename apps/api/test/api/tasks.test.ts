import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages, validationMessages, type Task } from '@task-manager/shared';
import { buildTask, createTask, signUp, type Session } from '../helpers/factories.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

/** created_at has millisecond precision: a short pause gives each task its own timestamp. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

const ids = (tasks: Array<{ _id: string }>) => tasks.map((task) => task._id);

function expectIsoString(value: unknown) {
  expect(typeof value).toBe('string');
  expect(new Date(value as string).toISOString()).toBe(value);
}

const notFoundBody = { message: apiMessages.taskNotFound, code: 'not_found' };

/** A copy of a request body with one field left out. */
function without(body: object, key: string): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...body };
  delete copy[key];
  return copy;
}

describe(`tasks API (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;
  let member: Session;
  let other: Session;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
    member = await signUp(ctx, 'member');
    other = await signUp(ctx, 'member');
  });
  afterAll(() => ctx.close());

  describe('authentication and roles', () => {
    it('refuses every task route without a token', async () => {
      for (const path of ['/api/tasks', `/api/tasks/${randomUUID()}`]) {
        const res = await ctx.api.get(path).expect(401);
        expect(res.body).toEqual({ message: apiMessages.notAuthorized, code: expect.any(String) });
      }
      await ctx.api
        .post('/api/tasks')
        .send(buildTask([member.id]))
        .expect(401);
    });

    it('lets only admins create, update and delete tasks', async () => {
      const task = await createTask(ctx, admin, [member.id]);
      const forbidden = { message: apiMessages.adminOnly, code: 'forbidden' };
      const created = await ctx.api
        .post('/api/tasks')
        .set(member.auth)
        .send(buildTask([member.id]))
        .expect(403);
      expect(created.body).toEqual(forbidden);
      const updated = await ctx.api
        .put(`/api/tasks/${task._id}`)
        .set(member.auth)
        .send({ title: 'Hijacked' })
        .expect(403);
      expect(updated.body).toEqual(forbidden);
      const deleted = await ctx.api.delete(`/api/tasks/${task._id}`).set(member.auth).expect(403);
      expect(deleted.body).toEqual(forbidden);
      const after = await ctx.api.get(`/api/tasks/${task._id}`).set(admin.auth).expect(200);
      expect(after.body.title).toBe(task.title);
    });
  });

  describe('GET /api/tasks', () => {
    let lister: Session;
    let pending: Task;
    let inProgress: Task;
    let completed: Task;
    let foreign: Task;

    beforeAll(async () => {
      lister = await signUp(ctx, 'member');
      const outsider = await signUp(ctx, 'member');
      pending = await createTask(ctx, admin, [lister.id]);
      await tick();
      inProgress = await createTask(ctx, admin, [lister.id, outsider.id], {
        todoChecklist: [
          { text: 'One', completed: true },
          { text: 'Two', completed: false },
        ],
      });
      await tick();
      foreign = await createTask(ctx, admin, [outsider.id]);
      await tick();
      completed = await createTask(ctx, admin, [lister.id], {
        todoChecklist: [{ text: 'Only', completed: true }],
      });
    });

    it('shows a member only the tasks assigned to them, newest first', async () => {
      const res = await ctx.api.get('/api/tasks').set(lister.auth).expect(200);
      expect(ids(res.body.tasks)).toEqual([completed._id, inProgress._id, pending._id]);
      expect(ids(res.body.tasks)).not.toContain(foreign._id);
      expect(res.body.statusSummary).toEqual({
        all: 3,
        pendingTasks: 1,
        inProgressTasks: 1,
        completedTasks: 1,
      });
    });

    it('shows an admin every task, newest first, with a summary of all of them', async () => {
      const res = await ctx.api.get('/api/tasks').set(admin.auth).expect(200);
      const rows = await ctx.db
        .selectFrom('tasks')
        .select(['id', 'status'])
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      expect(ids(res.body.tasks)).toEqual(rows.map((row) => row.id));
      expect(ids(res.body.tasks)).toEqual(
        expect.arrayContaining([pending._id, inProgress._id, completed._id, foreign._id]),
      );
      const count = (status: string) => rows.filter((row) => row.status === status).length;
      expect(res.body.statusSummary).toEqual({
        all: rows.length,
        pendingTasks: count('Pending'),
        inProgressTasks: count('In Progress'),
        completedTasks: count('Completed'),
      });
      const times = res.body.tasks.map((task: Task) => Date.parse(task.createdAt));
      expect([...times].sort((a, b) => b - a)).toEqual(times);
    });

    it.each([
      ['Pending', () => pending],
      ['In Progress', () => inProgress],
      ['Completed', () => completed],
    ])('filters by status %s while the summary still counts every status', async (status, task) => {
      const res = await ctx.api.get('/api/tasks').query({ status }).set(lister.auth).expect(200);
      expect(ids(res.body.tasks)).toEqual([task()._id]);
      expect(res.body.tasks[0].status).toBe(status);
      expect(res.body.statusSummary).toEqual({
        all: 3,
        pendingTasks: 1,
        inProgressTasks: 1,
        completedTasks: 1,
      });
    });

    it('filters by status for an admin too', async () => {
      const all = await ctx.api.get('/api/tasks').set(admin.auth).expect(200);
      const res = await ctx.api
        .get('/api/tasks')
        .query({ status: 'In Progress' })
        .set(admin.auth)
        .expect(200);
      expect(res.body.tasks.length).toBe(all.body.statusSummary.inProgressTasks);
      expect(res.body.tasks.every((task: Task) => task.status === 'In Progress')).toBe(true);
      expect(ids(res.body.tasks)).toContain(inProgress._id);
      expect(res.body.statusSummary).toEqual(all.body.statusSummary);
    });

    it.each(['', 'All'])('treats status=%j as no filter', async (status) => {
      const res = await ctx.api.get('/api/tasks').query({ status }).set(lister.auth).expect(200);
      expect(ids(res.body.tasks)).toEqual([completed._id, inProgress._id, pending._id]);
    });

    it.each(['Done', 'pending', 'in progress'])(
      'rejects the unknown status %j with 400',
      async (status) => {
        const res = await ctx.api.get('/api/tasks').query({ status }).set(lister.auth).expect(400);
        expect(res.body).toEqual({
          message: validationMessages.invalidStatus,
          errors: [{ path: 'status', message: validationMessages.invalidStatus }],
          code: expect.any(String),
        });
      },
    );

    it('rejects a repeated status parameter with 400', async () => {
      const res = await ctx.api
        .get('/api/tasks?status=Pending&status=Completed')
        .set(lister.auth)
        .expect(400);
      expect(res.body.message).toBe(validationMessages.invalidStatus);
    });

    it('returns an empty list and zero counts to a member with no tasks', async () => {
      const idle = await signUp(ctx, 'member');
      const res = await ctx.api.get('/api/tasks').set(idle.auth).expect(200);
      expect(res.body).toEqual({
        tasks: [],
        statusSummary: { all: 0, pendingTasks: 0, inProgressTasks: 0, completedTasks: 0 },
        nextCursor: null,
      });
    });

    it('gives every task its full shape, with assignees but no password fields', async () => {
      const res = await ctx.api
        .get('/api/tasks')
        .query({ status: 'In Progress' })
        .set(lister.auth)
        .expect(200);
      const [task] = res.body.tasks;
      expect(Object.keys(task).sort()).toEqual(
        [
          '_id',
          'assignedTo',
          'attachments',
          'completedTodoCount',
          'createdAt',
          'createdBy',
          'description',
          'dueDate',
          'files',
          'labels',
          'priority',
          'progress',
          'status',
          'title',
          'todoChecklist',
          'updatedAt',
        ].sort(),
      );
      expect(task).toMatchObject({
        _id: inProgress._id,
        title: inProgress.title,
        description: 'Write the quarterly report',
        priority: 'Medium',
        status: 'In Progress',
        progress: 50,
        completedTodoCount: 1,
        createdBy: admin.id,
        attachments: ['https://example.com/spec.pdf'],
      });
      expect(task.todoChecklist).toEqual([
        { _id: expect.any(String), text: 'One', completed: true },
        { _id: expect.any(String), text: 'Two', completed: false },
      ]);
      expect(task.assignedTo).toHaveLength(2);
      expect(task.assignedTo[0]).toEqual({
        _id: lister.id,
        name: lister.user.name,
        email: lister.email,
        profileImageUrl: lister.user.profileImageUrl,
      });
      for (const assignee of task.assignedTo) {
        expect(Object.keys(assignee).sort()).toEqual(['_id', 'email', 'name', 'profileImageUrl']);
      }
      expect(JSON.stringify(res.body)).not.toMatch(/password/i);
      expectIsoString(task.dueDate);
      expectIsoString(task.createdAt);
      expectIsoString(task.updatedAt);
    });

    it('accepts a trailing slash', async () => {
      const plain = await ctx.api.get('/api/tasks').set(lister.auth).expect(200);
      const slashed = await ctx.api.get('/api/tasks/').set(lister.auth).expect(200);
      expect(slashed.body).toEqual(plain.body);
      const filtered = await ctx.api
        .get('/api/tasks/')
        .query({ status: 'Completed' })
        .set(lister.auth)
        .expect(200);
      expect(ids(filtered.body.tasks)).toEqual([completed._id]);
    });
  });

  describe('GET /api/tasks/:id', () => {
    let task: Task;

    beforeAll(async () => {
      task = await createTask(ctx, admin, [member.id]);
    });

    it('gives an admin any task', async () => {
      const res = await ctx.api.get(`/api/tasks/${task._id}`).set(admin.auth).expect(200);
      expect(res.body).toEqual(task);
    });

    it('gives an assigned member the task', async () => {
      const res = await ctx.api.get(`/api/tasks/${task._id}`).set(member.auth).expect(200);
      expect(res.body).toEqual(task);
    });

    it('accepts a trailing slash', async () => {
      const res = await ctx.api.get(`/api/tasks/${task._id}/`).set(member.auth).expect(200);
      expect(res.body._id).toBe(task._id);
    });

    it('answers an unassigned member exactly as for an unknown or malformed id', async () => {
      const unassigned = await ctx.api.get(`/api/tasks/${task._id}`).set(other.auth).expect(404);
      const unknown = await ctx.api.get(`/api/tasks/${randomUUID()}`).set(admin.auth).expect(404);
      const malformed = await ctx.api.get('/api/tasks/not-a-task-id').set(admin.auth).expect(404);
      expect(unassigned.body).toEqual(notFoundBody);
      expect(unknown.body).toEqual(notFoundBody);
      expect(malformed.body).toEqual(notFoundBody);
    });
  });

  describe('POST /api/tasks', () => {
    const post = (body: unknown) =>
      ctx.api
        .post('/api/tasks')
        .set(admin.auth)
        .send(body as object);

    it('creates a task: 201 with the message and the task, Pending at 0%', async () => {
      const body = buildTask([member.id], { priority: 'High' });
      const res = await post(body).expect(201);
      expect(res.body.message).toBe(apiMessages.taskCreated);
      expect(Object.keys(res.body).sort()).toEqual(['message', 'task']);
      const task = res.body.task;
      expect(task).toMatchObject({
        title: body.title,
        description: body.description,
        priority: 'High',
        status: 'Pending',
        progress: 0,
        completedTodoCount: 0,
        dueDate: body.dueDate,
        createdBy: admin.id,
        attachments: body.attachments,
      });
      expect(task.todoChecklist).toEqual([
        { _id: expect.any(String), text: 'Draft', completed: false },
        { _id: expect.any(String), text: 'Review', completed: false },
      ]);
      expect(ids(task.assignedTo)).toEqual([member.id]);
      expectIsoString(task.createdAt);
      expect(task.updatedAt).toBe(task.createdAt);
      const stored = await ctx.api.get(`/api/tasks/${task._id}`).set(admin.auth).expect(200);
      expect(stored.body).toEqual(task);
    });

    it('gives the messages in the spec order, the first one as the message', async () => {
      const empty = await post({}).expect(400);
      expect(empty.body).toEqual({
        message: validationMessages.titleRequired,
        errors: [
          { path: 'title', message: validationMessages.titleRequired },
          { path: 'description', message: validationMessages.descriptionRequired },
          { path: 'dueDate', message: validationMessages.dueDateRequired },
          { path: 'assignedTo', message: validationMessages.notAssigned },
          { path: 'todoChecklist', message: validationMessages.todoRequired },
        ],
        code: expect.any(String),
      });

      const valid = buildTask([member.id]);
      const steps: Array<[Record<string, unknown>, string, string]> = [
        [{ title: '   ' }, 'title', validationMessages.titleRequired],
        [{ description: undefined }, 'description', validationMessages.descriptionRequired],
        [{ description: '  ' }, 'description', validationMessages.descriptionRequired],
        [{ dueDate: undefined }, 'dueDate', validationMessages.dueDateRequired],
        [{ dueDate: '' }, 'dueDate', validationMessages.dueDateRequired],
        [{ assignedTo: [] }, 'assignedTo', validationMessages.notAssigned],
        [{ assignedTo: undefined }, 'assignedTo', validationMessages.notAssigned],
        [{ todoChecklist: [] }, 'todoChecklist', validationMessages.todoRequired],
        [{ todoChecklist: undefined }, 'todoChecklist', validationMessages.todoRequired],
      ];
      for (const [override, path, message] of steps) {
        const res = await post({ ...valid, ...override }).expect(400);
        expect(res.body).toEqual({
          message,
          errors: [{ path, message }],
          code: expect.any(String),
        });
      }

      // Two failures at once: the earlier field in the spec order is the message.
      const both = await post({ ...valid, dueDate: undefined, todoChecklist: [] }).expect(400);
      expect(both.body.message).toBe(validationMessages.dueDateRequired);
      expect(both.body.errors).toEqual([
        { path: 'dueDate', message: validationMessages.dueDateRequired },
        { path: 'todoChecklist', message: validationMessages.todoRequired },
      ]);
    });

    it('defaults the priority to Low and rejects an unknown priority', async () => {
      const res = await post(without(buildTask([member.id]), 'priority')).expect(201);
      expect(res.body.task.priority).toBe('Low');

      const bad = await post(buildTask([member.id], { priority: 'Urgent' as 'High' })).expect(400);
      expect(bad.body).toEqual({
        message: validationMessages.invalidPriority,
        errors: [{ path: 'priority', message: validationMessages.invalidPriority }],
        code: expect.any(String),
      });
    });

    it('rejects an assignee who does not exist, naming the id', async () => {
      const ghost = randomUUID();
      const before = await ctx.db.selectFrom('tasks').select('id').execute();
      const res = await post(buildTask([member.id, ghost])).expect(400);
      expect(res.body).toEqual({
        message: apiMessages.assigneeNotFound,
        errors: [{ path: 'assignedTo', message: `${apiMessages.assigneeNotFound}: ${ghost}` }],
        code: expect.any(String),
      });
      const after = await ctx.db.selectFrom('tasks').select('id').execute();
      expect(after.length).toBe(before.length);
    });

    it('rejects an assignee id that is not an id', async () => {
      const res = await post(buildTask(['not-an-id'])).expect(400);
      expect(res.body).toEqual({
        message: validationMessages.invalidId,
        errors: [{ path: 'assignedTo.0', message: validationMessages.invalidId }],
        code: expect.any(String),
      });
    });

    it('lists a member assigned twice only once', async () => {
      const res = await post(buildTask([member.id, other.id, member.id])).expect(201);
      expect(ids(res.body.task.assignedTo)).toEqual([member.id, other.id]);
    });

    it('drops blank attachments and keeps the order of the rest', async () => {
      const attachments = [
        'https://b.example.com/2',
        '',
        '   ',
        'https://a.example.com/1',
        'c.example.com/3',
      ];
      const res = await post(buildTask([member.id], { attachments })).expect(201);
      // Stored as absolute http(s) URLs: the bare link gains its https://.
      const expected = [
        'https://b.example.com/2',
        'https://a.example.com/1',
        'https://c.example.com/3',
      ];
      expect(res.body.task.attachments).toEqual(expected);
      const stored = await ctx.api
        .get(`/api/tasks/${res.body.task._id}`)
        .set(member.auth)
        .expect(200);
      expect(stored.body.attachments).toEqual(expected);
    });

    it('accepts a task without attachments', async () => {
      const res = await post(without(buildTask([member.id]), 'attachments')).expect(201);
      expect(res.body.task.attachments).toEqual([]);
    });

    it('rejects an attachment that is not a web link', async () => {
      const res = await post(
        buildTask([member.id], { attachments: ['javascript:alert(1)'] }),
      ).expect(400);
      expect(res.body).toEqual({
        message: validationMessages.invalidAttachment,
        errors: [{ path: 'attachments', message: validationMessages.invalidAttachment }],
        code: expect.any(String),
      });
    });

    it('rejects a blank checklist item', async () => {
      const res = await post(
        buildTask([member.id], { todoChecklist: [{ text: 'Fine' }, { text: '   ' }] }),
      ).expect(400);
      expect(res.body).toEqual({
        message: validationMessages.todoTextBlank,
        errors: [{ path: 'todoChecklist.1.text', message: validationMessages.todoTextBlank }],
        code: expect.any(String),
      });
    });

    it.each([
      '2026-02-30',
      '2025-13-01',
      'tomorrow',
      '2026-02-28T25:00:00Z',
      '2026-01-01'.padEnd(41, '0'),
    ])('rejects the invalid due date %j', async (dueDate) => {
      const res = await post(buildTask([member.id], { dueDate })).expect(400);
      expect(res.body).toEqual({
        message: validationMessages.dueDateInvalid,
        errors: [{ path: 'dueDate', message: validationMessages.dueDateInvalid }],
        code: expect.any(String),
      });
    });

    it('accepts a calendar date as midnight UTC, and a past due date', async () => {
      const res = await post(buildTask([member.id], { dueDate: '2020-01-31' })).expect(201);
      expect(res.body.task.dueDate).toBe('2020-01-31T00:00:00.000Z');
      const offset = await post(
        buildTask([member.id], { dueDate: '2030-06-01T10:00:00+02:00' }),
      ).expect(201);
      expect(offset.body.task.dueDate).toBe('2030-06-01T08:00:00.000Z');
    });

    it('keeps the checklist order and trims item text', async () => {
      const todoChecklist = [
        { text: 'Zeta' },
        { text: '  Alpha  ' },
        { text: 'Mu' },
        { text: 'Beta' },
      ];
      const res = await post(buildTask([member.id], { todoChecklist })).expect(201);
      const texts = ['Zeta', 'Alpha', 'Mu', 'Beta'];
      expect(res.body.task.todoChecklist.map((item: { text: string }) => item.text)).toEqual(texts);
      const stored = await ctx.api
        .get(`/api/tasks/${res.body.task._id}`)
        .set(member.auth)
        .expect(200);
      expect(stored.body.todoChecklist.map((item: { text: string }) => item.text)).toEqual(texts);
    });

    it('takes progress and status from items created already completed', async () => {
      const one = await post(
        buildTask([member.id], {
          todoChecklist: [
            { text: 'A', completed: true },
            { text: 'B', completed: false },
            { text: 'C' },
          ],
        }),
      ).expect(201);
      expect(one.body.task).toMatchObject({
        progress: 33,
        status: 'In Progress',
        completedTodoCount: 1,
      });

      const two = await post(
        buildTask([member.id], {
          todoChecklist: [
            { text: 'A', completed: true },
            { text: 'B', completed: true },
            { text: 'C', completed: false },
          ],
        }),
      ).expect(201);
      expect(two.body.task).toMatchObject({
        progress: 67,
        status: 'In Progress',
        completedTodoCount: 2,
      });

      const all = await post(
        buildTask([member.id], {
          todoChecklist: [
            { text: 'A', completed: true },
            { text: 'B', completed: true },
          ],
        }),
      ).expect(201);
      expect(all.body.task).toMatchObject({
        progress: 100,
        status: 'Completed',
        completedTodoCount: 2,
      });
    });

    it('ignores a status or progress sent by the client', async () => {
      const res = await post({
        ...buildTask([member.id]),
        status: 'Completed',
        progress: 100,
      }).expect(201);
      expect(res.body.task).toMatchObject({ status: 'Pending', progress: 0 });
    });

    it('answers malformed JSON with 400', async () => {
      const res = await ctx.api
        .post('/api/tasks')
        .set(admin.auth)
        .set('Content-Type', 'application/json')
        .send('{"title": ')
        .expect(400);
      expect(res.body).toEqual({ message: apiMessages.malformedJson, code: expect.any(String) });
    });
  });

  describe('PUT /api/tasks/:id', () => {
    const put = (id: string, body: unknown) =>
      ctx.api
        .put(`/api/tasks/${id}`)
        .set(admin.auth)
        .send(body as object);

    it('changes only the fields sent', async () => {
      const task = await createTask(ctx, admin, [member.id]);
      await tick();
      const res = await put(task._id, { title: 'Renamed task' }).expect(200);
      expect(res.body.message).toBe(apiMessages.taskUpdated);
      expect(res.body.task).toEqual({
        ...task,
        title: 'Renamed task',
        updatedAt: expect.any(String),
      });
      expect(Date.parse(res.body.task.updatedAt)).toBeGreaterThan(Date.parse(task.updatedAt));
      expect(res.body.task.createdAt).toBe(task.createdAt);

      const more = await put(task._id, {
        description: 'New description',
        priority: 'High',
        dueDate: '2031-03-04',
        attachments: ['https://x.example.com/1', '', 'https://y.example.com/2'],
      }).expect(200);
      expect(more.body.task).toMatchObject({
        title: 'Renamed task',
        description: 'New description',
        priority: 'High',
        dueDate: '2031-03-04T00:00:00.000Z',
        attachments: ['https://x.example.com/1', 'https://y.example.com/2'],
        todoChecklist: task.todoChecklist,
        assignedTo: task.assignedTo,
      });
      const stored = await ctx.api.get(`/api/tasks/${task._id}`).set(admin.auth).expect(200);
      expect(stored.body).toEqual(more.body.task);
    });

    it('validates every field sent with the create rules', async () => {
      const task = await createTask(ctx, admin, [member.id]);
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ title: '  ' }, 'title', validationMessages.titleRequired],
        [{ description: '' }, 'description', validationMessages.descriptionRequired],
        [{ dueDate: '' }, 'dueDate', validationMessages.dueDateRequired],
        [{ dueDate: '2026-02-30' }, 'dueDate', validationMessages.dueDateInvalid],
        [{ assignedTo: [] }, 'assignedTo', validationMessages.notAssigned],
        [{ todoChecklist: [] }, 'todoChecklist', validationMessages.todoRequired],
        [
          { todoChecklist: [{ text: ' ' }] },
          'todoChecklist.0.text',
          validationMessages.todoTextBlank,
        ],
        [{ priority: 'Critical' }, 'priority', validationMessages.invalidPriority],
        [
          { attachments: ['ftp://x.example.com'] },
          'attachments',
          validationMessages.invalidAttachment,
        ],
      ];
      for (const [body, path, message] of cases) {
        const res = await put(task._id, body).expect(400);
        expect(res.body).toEqual({
          message,
          errors: [{ path, message }],
          code: expect.any(String),
        });
      }
      const ghost = randomUUID();
      const missing = await put(task._id, { assignedTo: [ghost] }).expect(400);
      expect(missing.body).toEqual({
        message: apiMessages.assigneeNotFound,
        errors: [{ path: 'assignedTo', message: `${apiMessages.assigneeNotFound}: ${ghost}` }],
        code: expect.any(String),
      });
      const stored = await ctx.api.get(`/api/tasks/${task._id}`).set(admin.auth).expect(200);
      expect(stored.body).toEqual(task);
    });

    it('recomputes progress and status when the checklist is replaced', async () => {
      const task = await createTask(ctx, admin, [member.id], {
        todoChecklist: [
          { text: 'Draft', completed: true },
          { text: 'Review', completed: false },
        ],
      });
      expect(task).toMatchObject({ progress: 50, status: 'In Progress' });
      const draftId = task.todoChecklist[0]?._id;

      // Items sent without `completed` keep the state of the item with the same text.
      const merged = await put(task._id, {
        todoChecklist: [{ text: 'Review' }, { text: 'Draft' }, { text: 'Publish' }],
      }).expect(200);
      expect(merged.body.task.todoChecklist).toEqual([
        { _id: task.todoChecklist[1]?._id, text: 'Review', completed: false },
        { _id: draftId, text: 'Draft', completed: true },
        { _id: expect.any(String), text: 'Publish', completed: false },
      ]);
      expect(merged.body.task).toMatchObject({
        progress: 33,
        status: 'In Progress',
        completedTodoCount: 1,
      });

      const done = await put(task._id, {
        todoChecklist: [
          { text: 'Review', completed: true },
          { text: 'Draft' },
          { text: 'Publish', completed: true },
        ],
      }).expect(200);
      expect(done.body.task).toMatchObject({
        progress: 100,
        status: 'Completed',
        completedTodoCount: 3,
      });

      const fresh = await put(task._id, { todoChecklist: [{ text: 'Start over' }] }).expect(200);
      expect(fresh.body.task).toMatchObject({
        progress: 0,
        status: 'Pending',
        completedTodoCount: 0,
      });
      const stored = await ctx.api.get(`/api/tasks/${task._id}`).set(member.auth).expect(200);
      expect(stored.body).toMatchObject({
        progress: 0,
        status: 'Pending',
        todoChecklist: [{ _id: expect.any(String), text: 'Start over', completed: false }],
      });
    });

    it('changes who sees the task when it is reassigned', async () => {
      const first = await signUp(ctx, 'member');
      const second = await signUp(ctx, 'member');
      const task = await createTask(ctx, admin, [first.id]);
      await ctx.api.get(`/api/tasks/${task._id}`).set(first.auth).expect(200);
      await ctx.api.get(`/api/tasks/${task._id}`).set(second.auth).expect(404);

      const res = await put(task._id, { assignedTo: [second.id] }).expect(200);
      expect(res.body.task.assignedTo).toEqual([
        {
          _id: second.id,
          name: second.user.name,
          email: second.email,
          profileImageUrl: second.user.profileImageUrl,
        },
      ]);

      const gone = await ctx.api.get(`/api/tasks/${task._id}`).set(first.auth).expect(404);
      expect(gone.body).toEqual(notFoundBody);
      await ctx.api.get(`/api/tasks/${task._id}`).set(second.auth).expect(200);
      const firstList = await ctx.api.get('/api/tasks').set(first.auth).expect(200);
      expect(firstList.body.tasks).toEqual([]);
      expect(firstList.body.statusSummary.all).toBe(0);
      const secondList = await ctx.api.get('/api/tasks').set(second.auth).expect(200);
      expect(ids(secondList.body.tasks)).toEqual([task._id]);
    });

    it('answers 404 for an unknown or malformed id', async () => {
      const unknown = await put(randomUUID(), { title: 'Nobody' }).expect(404);
      expect(unknown.body).toEqual(notFoundBody);
      const malformed = await put('not-a-task-id', { title: 'Nobody' }).expect(404);
      expect(malformed.body).toEqual(notFoundBody);
    });
  });

  describe('DELETE /api/tasks/:id', () => {
    it('deletes the task with its assignees, checklist items and attachments', async () => {
      const task = await createTask(ctx, admin, [member.id, other.id], {
        attachments: ['https://example.com/a', 'https://example.com/b'],
      });
      const keep = await createTask(ctx, admin, [member.id]);
      const rowsOf = async (taskId: string) => ({
        assignees: await ctx.db
          .selectFrom('task_assignees')
          .select('user_id')
          .where('task_id', '=', taskId)
          .execute(),
        items: await ctx.db
          .selectFrom('todo_items')
          .select('id')
          .where('task_id', '=', taskId)
          .execute(),
        attachments: await ctx.db
          .selectFrom('attachments')
          .select('id')
          .where('task_id', '=', taskId)
          .execute(),
      });
      const before = await rowsOf(task._id);
      expect([before.assignees.length, before.items.length, before.attachments.length]).toEqual([
        2, 2, 2,
      ]);

      const res = await ctx.api.delete(`/api/tasks/${task._id}`).set(admin.auth).expect(200);
      expect(res.body).toEqual({ message: apiMessages.taskDeleted });

      const after = await ctx.api.get(`/api/tasks/${task._id}`).set(admin.auth).expect(404);
      expect(after.body).toEqual(notFoundBody);
      expect(await rowsOf(task._id)).toEqual({ assignees: [], items: [], attachments: [] });
      expect(
        await ctx.db.selectFrom('tasks').select('id').where('id', '=', task._id).execute(),
      ).toEqual([]);

      // Other tasks keep theirs, and the member's list no longer has the deleted one.
      const kept = await rowsOf(keep._id);
      expect([kept.assignees.length, kept.items.length, kept.attachments.length]).toEqual([
        1, 2, 1,
      ]);
      const list = await ctx.api.get('/api/tasks').set(other.auth).expect(200);
      expect(ids(list.body.tasks)).not.toContain(task._id);

      const again = await ctx.api.delete(`/api/tasks/${task._id}`).set(admin.auth).expect(404);
      expect(again.body).toEqual(notFoundBody);
    });

    it('answers 404 for an unknown or malformed id', async () => {
      const unknown = await ctx.api
        .delete(`/api/tasks/${randomUUID()}`)
        .set(admin.auth)
        .expect(404);
      expect(unknown.body).toEqual(notFoundBody);
      const malformed = await ctx.api
        .delete('/api/tasks/not-a-task-id')
        .set(admin.auth)
        .expect(404);
      expect(malformed.body).toEqual(notFoundBody);
    });
  });
});
