import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CARD_DESCRIPTION_LENGTH,
  TASK_CARDS_MEDIA_TYPE,
  taskCardListResponseSchema,
  taskListResponseSchema,
  type Task,
} from '@task-manager/shared';
import { createTask, signUp, type Session } from '../helpers/factories.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

describe(`GET /api/tasks?view=card: the lean list for cards (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;
  let member: Session;
  let outsider: Session;
  let task: Task;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
    member = await signUp(ctx, 'member');
    outsider = await signUp(ctx, 'member');
    task = await createTask(ctx, admin, [member.id], {
      description: `${'long text '.repeat(60)}🙂`,
      todoChecklist: [
        { text: 'Draft', completed: true },
        { text: 'Review', completed: false },
        { text: 'Publish', completed: false },
      ],
      attachments: ['https://example.com/a', 'https://example.com/b'],
    });
    await ctx.api
      .post(`/api/tasks/${task._id}/files`)
      .set(admin.auth)
      .attach('file', Buffer.from('notes'), 'notes.txt')
      .expect(201);
  });
  afterAll(() => ctx.close());

  it('answers each task with counts instead of its checklist, links and files', async () => {
    const res = await ctx.api.get('/api/tasks?view=card').set(admin.auth).expect(200);
    expect(res.headers['content-type']).toMatch(TASK_CARDS_MEDIA_TYPE);
    const body = taskCardListResponseSchema.strict().parse(res.body);
    const [card] = body.tasks;
    expect(card).toMatchObject({
      _id: task._id,
      title: task.title,
      todoDone: 1,
      todoTotal: 3,
      completedTodoCount: 1,
      progress: 33,
      attachmentCount: 2,
      fileCount: 1,
      assignedTo: task.assignedTo,
      labels: [],
    });
    expect(card).not.toHaveProperty('todoChecklist');
    expect(card).not.toHaveProperty('attachments');
    expect(card).not.toHaveProperty('files');
    expect(card!.description.endsWith('…')).toBe(true);
    expect(card!.description.length).toBeLessThanOrEqual(CARD_DESCRIPTION_LENGTH + 1);
    expect(task.description.startsWith(card!.description.slice(0, -1))).toBe(true);
    expect(body.statusSummary.all).toBe(1);
  });

  it('leaves the default answer whole, as the original client reads it', async () => {
    const res = await ctx.api.get('/api/tasks').set(admin.auth).expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = taskListResponseSchema.strict().parse(res.body);
    expect(body.tasks[0]!.todoChecklist).toHaveLength(3);
    expect(body.tasks[0]!.description).toBe(task.description);
    const full = await ctx.api.get('/api/tasks?view=full').set(admin.auth).expect(200);
    expect(full.body).toEqual(res.body);
  });

  it('gives a member the cards of their own tasks only, with the same filters and paging', async () => {
    const mine = await ctx.api.get('/api/tasks?view=card').set(member.auth).expect(200);
    expect(mine.body.tasks.map((card: { _id: string }) => card._id)).toEqual([task._id]);
    const none = await ctx.api.get('/api/tasks?view=card').set(outsider.auth).expect(200);
    expect(none.body).toEqual({
      tasks: [],
      statusSummary: { all: 0, pendingTasks: 0, inProgressTasks: 0, completedTasks: 0 },
      nextCursor: null,
    });
    const second = await createTask(ctx, admin, [member.id], {
      todoChecklist: [{ text: 'Only', completed: false }],
      attachments: [],
    });
    const first = await ctx.api.get('/api/tasks?view=card&limit=1').set(member.auth).expect(200);
    expect(first.body.tasks[0]).toMatchObject({
      _id: second._id,
      todoDone: 0,
      todoTotal: 1,
      attachmentCount: 0,
      fileCount: 0,
    });
    const next = await ctx.api
      .get(`/api/tasks?view=card&limit=1&cursor=${encodeURIComponent(first.body.nextCursor)}`)
      .set(member.auth)
      .expect(200);
    expect(next.body.tasks.map((card: { _id: string }) => card._id)).toEqual([task._id]);
  });

  it('refuses an unknown view', async () => {
    const res = await ctx.api.get('/api/tasks?view=tiny').set(admin.auth).expect(400);
    expect(res.body.message).toBe('view must be full or card.');
  });
});
