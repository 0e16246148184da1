import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notification, NotificationType } from '@task-manager/shared';
import { createTask, signUp, type Session } from '../helpers/factories.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

/** Notifications over real HTTP: what each change tells whom, and the list, count and read. */
describe(`notifications (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
  });
  afterAll(() => ctx.close());

  const listOf = async (who: Session, query = ''): Promise<Notification[]> =>
    (await ctx.api.get(`/api/notifications${query}`).set(who.auth).expect(200)).body.items;
  const kindsOf = async (who: Session): Promise<NotificationType[]> =>
    (await listOf(who)).map((n) => n.type);
  const unreadCount = async (who: Session): Promise<number> =>
    (await ctx.api.get('/api/notifications/unread-count').set(who.auth).expect(200)).body.count;

  it('tells a person they were assigned, with the task and who did it; never the actor', async () => {
    const member = await signUp(ctx, 'member');
    const task = await createTask(ctx, admin, [member.id, admin.id]);
    const [note] = await listOf(member);
    expect(note).toMatchObject({
      type: 'assigned',
      task: { _id: task._id, title: task.title },
      actor: { _id: admin.id, name: admin.user.name },
      data: { taskTitle: task.title },
      readAt: null,
    });
    // The admin assigned themself: not told about their own action.
    expect(await kindsOf(admin)).toEqual([]);
  });

  it('tells a removed member, without giving the task back to them', async () => {
    const member = await signUp(ctx, 'member');
    const other = await signUp(ctx, 'member');
    const task = await createTask(ctx, admin, [member.id, other.id]);
    await ctx.api
      .put(`/api/tasks/${task._id}`)
      .set(admin.auth)
      .send({ assignedTo: [other.id] })
      .expect(200);
    const [latest] = await listOf(member);
    expect(latest).toMatchObject({
      type: 'unassigned',
      task: null,
      data: { taskTitle: task.title },
    });
    // The earlier `assigned` no longer links the task either: they cannot see it any more.
    const assigned = (await listOf(member)).find((n) => n.type === 'assigned');
    expect(assigned?.task).toBeNull();
    await ctx.api.get(`/api/tasks/${task._id}`).set(member.auth).expect(404);
    expect(await kindsOf(other)).toEqual(['assigned']);
  });

  it('tells the assignees when the due date changes, and not for other edits', async () => {
    const member = await signUp(ctx, 'member');
    const task = await createTask(ctx, admin, [member.id]);
    await ctx.api
      .put(`/api/tasks/${task._id}`)
      .set(admin.auth)
      .send({ title: `${task.title} (renamed)` })
      .expect(200);
    expect(await kindsOf(member)).toEqual(['assigned']);
    const dueDate = new Date(Date.now() + 30 * 86_400_000).toISOString();
    await ctx.api.put(`/api/tasks/${task._id}`).set(admin.auth).send({ dueDate }).expect(200);
    const [latest] = await listOf(member);
    expect(latest).toMatchObject({
      type: 'due_changed',
      task: { _id: task._id },
      data: { dueDate: expect.stringMatching(dueDate.slice(0, 10)) },
    });
  });

  it('a comment: mentioned people are told so (once), the other assignees get commented', async () => {
    const author = await signUp(ctx, 'member');
    const mentioned = await signUp(ctx, 'member');
    const bystander = await signUp(ctx, 'member');
    const task = await createTask(ctx, admin, [author.id, mentioned.id, bystander.id]);
    const comment = await ctx.api
      .post(`/api/tasks/${task._id}/comments`)
      .set(author.auth)
      .send({ body: 'Look at this', mentions: [mentioned.id, admin.id] })
      .expect(201);
    expect(await kindsOf(mentioned)).toEqual(['mentioned', 'assigned']);
    expect((await listOf(mentioned))[0]).toMatchObject({
      actor: { _id: author.id },
      data: { commentId: comment.body._id, taskTitle: task.title },
    });
    expect(await kindsOf(bystander)).toEqual(['commented', 'assigned']);
    // An admin not assigned is told only because they were mentioned.
    expect(await kindsOf(admin)).toEqual(['mentioned']);
    // The author is told nothing about their own comment.
    expect(await kindsOf(author)).toEqual(['assigned']);
  });

  it('pages newest first, filters unread, marks read only the caller’s own', async () => {
    const member = await signUp(ctx, 'member');
    const other = await signUp(ctx, 'member');
    const tasks = [];
    for (let i = 0; i < 5; i += 1) tasks.push(await createTask(ctx, admin, [member.id, other.id]));
    expect(await unreadCount(member)).toBe(5);

    const first = await ctx.api.get('/api/notifications?limit=2').set(member.auth).expect(200);
    expect(first.body.items.map((n: Notification) => n.task?._id)).toEqual([
      tasks[4]!._id,
      tasks[3]!._id,
    ]);
    const seen: string[] = first.body.items.map((n: Notification) => n._id);
    let cursor: string | null = first.body.nextCursor;
    while (cursor) {
      const page = await ctx.api
        .get('/api/notifications')
        .query({ limit: 2, cursor })
        .set(member.auth)
        .expect(200);
      seen.push(...page.body.items.map((n: Notification) => n._id));
      cursor = page.body.nextCursor;
    }
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);

    // Someone else's ids are ignored: nothing of theirs changes, nothing says they exist.
    const othersIds = (await listOf(other)).map((n) => n._id);
    const read = await ctx.api
      .post('/api/notifications/read')
      .set(member.auth)
      .send({ ids: [seen[0], seen[1], othersIds[0], randomUUID()] })
      .expect(200);
    expect(read.body).toEqual({ count: 3 });
    expect(await unreadCount(other)).toBe(5);

    const unread = await listOf(member, '?unread=true');
    expect(unread.map((n) => n._id)).toEqual(seen.slice(2));
    expect((await listOf(member)).filter((n) => n.readAt !== null)).toHaveLength(2);

    await ctx.api
      .post('/api/notifications/read')
      .set(member.auth)
      .send({ all: true })
      .expect(200, { count: 0 });
    expect(await listOf(member, '?unread=true')).toEqual([]);
    expect(await unreadCount(other)).toBe(5);
  });

  it('refuses a forged cursor and a read request with neither ids nor all', async () => {
    const member = await signUp(ctx, 'member');
    await ctx.api.get('/api/notifications?cursor=bm9wZQ').set(member.auth).expect(400);
    await ctx.api.post('/api/notifications/read').set(member.auth).send({}).expect(400);
    await ctx.api.post('/api/notifications/read').set(member.auth).send({ all: false }).expect(400);
  });

  it('preferences: the defaults, a partial change, and no e-mail without SMTP', async () => {
    const member = await signUp(ctx, 'member');
    const initial = await ctx.api
      .get('/api/notifications/preferences')
      .set(member.auth)
      .expect(200);
    expect(initial.body).toEqual({
      email: {
        assigned: 'instant',
        unassigned: 'digest',
        mentioned: 'instant',
        commented: 'digest',
        due_changed: 'digest',
        due_soon: 'digest',
        overdue: 'digest',
      },
      emailEnabled: false,
    });
    const changed = await ctx.api
      .put('/api/notifications/preferences')
      .set(member.auth)
      .send({ email: { assigned: 'never', overdue: 'instant' } })
      .expect(200);
    expect(changed.body.email).toMatchObject({
      assigned: 'never',
      overdue: 'instant',
      mentioned: 'instant',
    });
    const again = await ctx.api.get('/api/notifications/preferences').set(member.auth).expect(200);
    expect(again.body).toEqual(changed.body);
    await ctx.api
      .put('/api/notifications/preferences')
      .set(member.auth)
      .send({ email: { assigned: 'hourly' } })
      .expect(400);
  });

  it('writes a live event for each notification, to its recipient only', async () => {
    const member = await signUp(ctx, 'member');
    await createTask(ctx, admin, [member.id]);
    const [note] = await listOf(member);
    const events = await ctx.db
      .selectFrom('events')
      .selectAll()
      .where('type', '=', 'notification.created')
      .execute();
    const event = events.find((e) => JSON.parse(e.data).notificationId === note!._id);
    expect(event).toBeDefined();
    expect(JSON.parse(event!.audience)).toEqual([member.id]);
    expect(Number(event!.to_admins)).toBe(0);
  });

  it('tells a deactivated person nothing', async () => {
    const member = await signUp(ctx, 'member');
    const task = await createTask(ctx, admin, [member.id]);
    await ctx.api
      .patch(`/api/users/${member.id}`)
      .set(admin.auth)
      .send({ active: false })
      .expect(200);
    const dueDate = new Date(Date.now() + 40 * 86_400_000).toISOString();
    await ctx.api.put(`/api/tasks/${task._id}`).set(admin.auth).send({ dueDate }).expect(200);
    const rows = await ctx.db
      .selectFrom('notifications')
      .select('type')
      .where('user_id', '=', member.id)
      .execute();
    expect(rows.map((row) => row.type)).toEqual(['assigned']);
  });
});
