import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NEXT_CURSOR_HEADER, type Activity, type Task } from '@task-manager/shared';
import { createTask, signUp, type Session } from '../helpers/factories.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

describe(`activity history (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;
  let member: Session;
  let other: Session;
  let outsider: Session;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
    member = await signUp(ctx, 'member');
    other = await signUp(ctx, 'member');
    outsider = await signUp(ctx, 'member');
  });
  afterAll(() => ctx.close());

  const history = async (taskId: string, session: Session = admin) =>
    (await ctx.api.get(`/api/tasks/${taskId}/activity`).set(session.auth).expect(200))
      .body as Activity[];
  const typesAfter = async (taskId: string, count: number) =>
    (await history(taskId)).slice(count).map((entry) => [entry.type, entry.data]);

  it('records the creation with what the task was created with, by its creator', async () => {
    const task = await createTask(ctx, admin, [member.id]);
    const entries = await history(task._id, member);
    expect(entries.map((entry) => entry.type)).toEqual([
      'task.created',
      'assignee.added',
      'checklist.added',
      'checklist.added',
      'link.added',
    ]);
    expect(entries[0]).toMatchObject({
      type: 'task.created',
      taskId: task._id,
      actor: { _id: admin.id, name: admin.user.name, profileImageUrl: null },
      data: { title: task.title },
    });
    expect(entries[1]?.data).toEqual({ userId: member.id, name: member.user.name });
    expect(Object.keys(entries[0]!).sort()).toEqual([
      '_id',
      'actor',
      'at',
      'data',
      'taskId',
      'type',
    ]);
  });

  it('records field changes with before and after, assignees, checklist and links', async () => {
    const task = await createTask(ctx, admin, [member.id]);
    const seen = (await history(task._id)).length;
    const dueDate = new Date(Date.now() + 30 * 86_400_000).toISOString();
    await ctx.api
      .put(`/api/tasks/${task._id}`)
      .set(admin.auth)
      .send({
        title: 'Renamed',
        description: 'New words',
        priority: 'High',
        dueDate,
        assignedTo: [other.id],
        todoChecklist: [{ text: 'Review', completed: true }, { text: 'Ship' }],
        attachments: ['https://example.com/new'],
      })
      .expect(200);
    const entries = await typesAfter(task._id, seen);
    expect(entries).toEqual([
      [
        'task.updated',
        {
          changes: {
            title: { before: task.title, after: 'Renamed' },
            description: { before: task.description, after: 'New words' },
            priority: { before: 'Medium', after: 'High' },
            dueDate: { before: task.dueDate, after: dueDate },
          },
        },
      ],
      ['assignee.added', { userId: other.id, name: other.user.name }],
      ['assignee.removed', { userId: member.id, name: member.user.name }],
      ['checklist.ticked', expect.objectContaining({ text: 'Review' })],
      ['checklist.added', expect.objectContaining({ text: 'Ship' })],
      ['checklist.removed', expect.objectContaining({ text: 'Draft' })],
      ['status.changed', { before: 'Pending', after: 'In Progress', reason: 'checklist' }],
      ['link.added', { url: 'https://example.com/new' }],
      ['link.removed', { url: 'https://example.com/spec.pdf' }],
    ]);
  });

  it('records label changes when labels change', async () => {
    const label = await ctx.api
      .post('/api/labels')
      .set(admin.auth)
      .send({ name: `Label ${Date.now()}`, color: '#336699' });
    if (label.status !== 201) return; // labels arrive with their own issue
    const task = await createTask(ctx, admin, [member.id]);
    const seen = (await history(task._id)).length;
    await ctx.api
      .put(`/api/tasks/${task._id}`)
      .set(admin.auth)
      .send({ labels: [label.body._id] })
      .expect(200);
    expect(await typesAfter(task._id, seen)).toEqual([
      ['task.updated', { changes: { labels: { before: [], after: [label.body._id] } } }],
    ]);
  });

  it('an update that changes nothing records nothing', async () => {
    const task = await createTask(ctx, admin, [member.id]);
    const seen = (await history(task._id)).length;
    await ctx.api
      .put(`/api/tasks/${task._id}`)
      .set(admin.auth)
      .send({ title: task.title })
      .expect(200);
    expect(await typesAfter(task._id, seen)).toEqual([]);
  });

  it('records ticks by the per-item PATCH and the spec PUT, by the member who did it', async () => {
    const task = await createTask(ctx, admin, [member.id]);
    const seen = (await history(task._id)).length;
    const [draft, review] = task.todoChecklist;
    await ctx.api
      .patch(`/api/tasks/${task._id}/todo/${draft!._id}`)
      .set(member.auth)
      .send({ completed: true })
      .expect(200);
    await ctx.api
      .put(`/api/tasks/${task._id}/todo`)
      .set(member.auth)
      .send({
        todoChecklist: [
          { text: 'Draft', completed: false },
          { text: 'Review', completed: true },
        ],
      })
      .expect(200);
    const entries = (await history(task._id)).slice(seen);
    expect(entries.map((entry) => [entry.type, entry.data, entry.actor?._id])).toEqual([
      ['checklist.ticked', { itemId: draft!._id, text: 'Draft' }, member.id],
      [
        'status.changed',
        { before: 'Pending', after: 'In Progress', reason: 'checklist' },
        member.id,
      ],
      ['checklist.unticked', { itemId: draft!._id, text: 'Draft' }, member.id],
      ['checklist.ticked', { itemId: review!._id, text: 'Review' }, member.id],
    ]);
  });

  it('records an explicit status move with its reason, and the ticks it made', async () => {
    const task = await createTask(ctx, admin, [member.id]);
    const seen = (await history(task._id)).length;
    await ctx.api
      .put(`/api/tasks/${task._id}/status`)
      .set(member.auth)
      .send({ status: 'Completed' })
      .expect(200);
    expect(await typesAfter(task._id, seen)).toEqual([
      ['checklist.ticked', expect.objectContaining({ text: 'Draft' })],
      ['checklist.ticked', expect.objectContaining({ text: 'Review' })],
      ['status.changed', { before: 'Pending', after: 'Completed', reason: 'move' }],
    ]);
  });

  it('is for those who can see the task: others get 404, anonymous 401', async () => {
    const task = await createTask(ctx, admin, [member.id]);
    await ctx.api.get(`/api/tasks/${task._id}/activity`).set(outsider.auth).expect(404);
    await ctx.api.get(`/api/tasks/${task._id}/activity`).expect(401);
  });

  it('pages with a cursor, oldest first, and refuses a forged cursor', async () => {
    const task = await createTask(ctx, admin, [member.id]);
    const all = await history(task._id);
    const first = await ctx.api
      .get(`/api/tasks/${task._id}/activity?limit=2`)
      .set(admin.auth)
      .expect(200);
    expect(first.body).toEqual(all.slice(0, 2));
    const cursor = first.headers[NEXT_CURSOR_HEADER.toLowerCase()];
    expect(cursor).toBeTruthy();
    const rest = await ctx.api
      .get(`/api/tasks/${task._id}/activity`)
      .query({ cursor, limit: 100 })
      .set(admin.auth)
      .expect(200);
    expect(rest.body).toEqual(all.slice(2));
    expect(rest.headers[NEXT_CURSOR_HEADER.toLowerCase()]).toBeUndefined();
    const forged = Buffer.from('["x",1,"nope"]').toString('base64url');
    const bad = await ctx.api
      .get(`/api/tasks/${task._id}/activity`)
      .query({ cursor: forged })
      .set(admin.auth)
      .expect(400);
    expect(bad.body.errors[0].path).toBe('cursor');
  });

  it('GET /api/activity: admins see recent activity across tasks, newest first, with the task', async () => {
    const task = await createTask(ctx, admin, [member.id]);
    await ctx.api
      .put(`/api/tasks/${task._id}`)
      .set(admin.auth)
      .send({ priority: 'Low' })
      .expect(200);
    const res = await ctx.api.get('/api/activity?limit=3').set(admin.auth).expect(200);
    const [newest] = res.body as Activity[];
    expect(newest).toMatchObject({
      type: 'task.updated',
      taskId: task._id,
      task: { _id: task._id, title: task.title },
      data: { changes: { priority: { before: 'Medium', after: 'Low' } } },
    });
    expect(res.headers[NEXT_CURSOR_HEADER.toLowerCase()]).toBeTruthy();
    await ctx.api.get('/api/activity').set(member.auth).expect(403);
    await ctx.api.get('/api/activity').expect(401);
  });

  it('keeps the entries of a deleted actor, with actor null', async () => {
    const otherAdmin = await signUp(ctx, 'admin');
    const task = await createTask(ctx, otherAdmin, [member.id]);
    const deleted = await ctx.api.delete(`/api/users/${otherAdmin.id}`).set(admin.auth);
    expect([200, 204]).toContain(deleted.status);
    const [created] = await history(task._id);
    expect(created).toMatchObject({ type: 'task.created', actor: null });
  });

  it('a refused change records nothing (same transaction)', async () => {
    const task = await createTask(ctx, admin, [member.id]);
    const seen = (await history(task._id)).length;
    await ctx.api
      .put(`/api/tasks/${task._id}`)
      .set(admin.auth)
      .send({ title: 'Never', assignedTo: [crypto.randomUUID()] })
      .expect(400);
    expect((await history(task._id)).length).toBe(seen);
    const current = (await ctx.api.get(`/api/tasks/${task._id}`).set(admin.auth)).body as Task;
    expect(current.title).toBe(task.title);
  });
});
