import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiMessages,
  NEXT_CURSOR_HEADER,
  validationMessages,
  type Activity,
  type Comment,
} from '@task-manager/shared';
import { createTask, signUp, type Session } from '../helpers/factories.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

describe(`comments and mentions (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;
  let otherAdmin: Session;
  let member: Session;
  let teammate: Session;
  let outsider: Session;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
    otherAdmin = await signUp(ctx, 'admin');
    member = await signUp(ctx, 'member');
    teammate = await signUp(ctx, 'member');
    outsider = await signUp(ctx, 'member');
  });
  afterAll(() => ctx.close());

  const newTask = () => createTask(ctx, admin, [member.id, teammate.id]);
  const post = (session: Session | undefined, taskId: string, body: object) => {
    const req = ctx.api.post(`/api/tasks/${taskId}/comments`);
    return (session ? req.set(session.auth) : req).send(body);
  };

  it('anyone who can see the task comments; the answer has the issue shape', async () => {
    const task = await newTask();
    const body = '**Done?** See [the spec](https://example.com) and `code`.\n\n- a\n- b';
    const res = await post(member, task._id, { body }).expect(201);
    const comment = res.body as Comment;
    expect(comment).toEqual({
      _id: expect.any(String),
      taskId: task._id,
      author: { _id: member.id, name: member.user.name, profileImageUrl: null },
      body,
      mentions: [],
      createdAt: expect.any(String),
      updatedAt: comment.createdAt,
      edited: false,
      editedAt: null,
    });
    await post(admin, task._id, { body: 'Yes' }).expect(201);
    await post(outsider, task._id, { body: 'Let me in' }).expect(404);
    await post(undefined, task._id, { body: 'Anonymous' }).expect(401);
    const list = await ctx.api.get(`/api/tasks/${task._id}/comments`).set(teammate.auth);
    expect(list.status).toBe(200);
    expect((list.body as Comment[]).map((c) => c.body)).toEqual([body, 'Yes']);
    await ctx.api.get(`/api/tasks/${task._id}/comments`).set(outsider.auth).expect(404);
  });

  it('keeps HTML and javascript: links as the text written (rendering is the web part)', async () => {
    const task = await newTask();
    const body = '<script>alert(1)</script> [x](javascript:alert(1))';
    const res = await post(member, task._id, { body }).expect(201);
    expect(res.body.body).toBe(body);
  });

  it('refuses an empty, blank or over-long body, naming it', async () => {
    const task = await newTask();
    for (const body of ['', '   \n ', 'x'.repeat(10_001), undefined, 42]) {
      const res = await post(member, task._id, { body }).expect(400);
      expect(res.body.errors[0].path).toBe('body');
    }
    const long = await post(member, task._id, { body: 'x'.repeat(10_001) }).expect(400);
    expect(long.body.errors[0].message).toBe(validationMessages.commentTooLong);
    await post(member, task._id, { body: 'x'.repeat(10_000) }).expect(201);
  });

  it('stores mentions of people who can see the task', async () => {
    const task = await newTask();
    const res = await post(member, task._id, {
      body: '@team have a look',
      mentions: [teammate.id, otherAdmin.id, teammate.id],
    }).expect(201);
    expect(res.body.mentions).toEqual([teammate.id, otherAdmin.id]);
  });

  it('refuses a mention of someone who cannot see the task (400 naming mentions)', async () => {
    const task = await newTask();
    const res = await post(member, task._id, { body: 'hey', mentions: [outsider.id] }).expect(400);
    expect(res.body.message).toBe(apiMessages.mentionCannotSee);
    expect(res.body.errors[0].path).toBe('mentions');
    const unknown = await post(member, task._id, { body: 'hey', mentions: [randomUUID()] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].path).toBe('mentions');
    const garbage = await post(member, task._id, { body: 'hey', mentions: ['nope'] });
    expect(garbage.status).toBe(400);
    expect(garbage.body.errors[0].path).toMatch(/^mentions/);
    // Nothing was stored.
    const list = await ctx.api.get(`/api/tasks/${task._id}/comments`).set(admin.auth);
    expect(list.body).toEqual([]);
  });

  it('its author edits it (marked edited); nobody else', async () => {
    const task = await newTask();
    const comment = (await post(member, task._id, { body: 'first', mentions: [teammate.id] }))
      .body as Comment;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const res = await ctx.api
      .put(`/api/comments/${comment._id}`)
      .set(member.auth)
      .send({ body: 'second' })
      .expect(200);
    expect(res.body).toMatchObject({
      _id: comment._id,
      body: 'second',
      mentions: [teammate.id],
      edited: true,
      createdAt: comment.createdAt,
    });
    expect(res.body.editedAt).toBe(res.body.updatedAt);
    expect(res.body.updatedAt > comment.createdAt).toBe(true);
    for (const session of [teammate, admin]) {
      await ctx.api
        .put(`/api/comments/${comment._id}`)
        .set(session.auth)
        .send({ body: 'hijack' })
        .expect(403);
    }
    await ctx.api
      .put(`/api/comments/${comment._id}`)
      .set(outsider.auth)
      .send({ body: 'hijack' })
      .expect(404);
    await ctx.api
      .put(`/api/comments/${comment._id}`)
      .set(member.auth)
      .send({ body: 'x', mentions: [outsider.id] })
      .expect(400);
    await ctx.api
      .put(`/api/comments/${randomUUID()}`)
      .set(member.auth)
      .send({ body: 'x' })
      .expect(404);
  });

  it('its author or an admin deletes it; nobody else', async () => {
    const task = await newTask();
    const first = (await post(member, task._id, { body: 'one' })).body as Comment;
    const second = (await post(member, task._id, { body: 'two' })).body as Comment;
    await ctx.api.delete(`/api/comments/${first._id}`).set(teammate.auth).expect(403);
    await ctx.api.delete(`/api/comments/${first._id}`).set(outsider.auth).expect(404);
    await ctx.api.delete(`/api/comments/${first._id}`).set(member.auth).expect(200);
    await ctx.api.delete(`/api/comments/${second._id}`).set(otherAdmin.auth).expect(200);
    await ctx.api.delete(`/api/comments/${second._id}`).set(otherAdmin.auth).expect(404);
    const list = await ctx.api.get(`/api/tasks/${task._id}/comments`).set(admin.auth);
    expect(list.body).toEqual([]);
  });

  it('a member unassigned loses access to the comments', async () => {
    const task = await newTask();
    const comment = (await post(teammate, task._id, { body: 'mine' })).body as Comment;
    await ctx.api
      .put(`/api/tasks/${task._id}`)
      .set(admin.auth)
      .send({ assignedTo: [member.id] })
      .expect(200);
    await ctx.api.get(`/api/tasks/${task._id}/comments`).set(teammate.auth).expect(404);
    await ctx.api
      .put(`/api/comments/${comment._id}`)
      .set(teammate.auth)
      .send({ body: 'x' })
      .expect(404);
  });

  it('pages oldest first with a cursor', async () => {
    const task = await newTask();
    for (const body of ['a', 'b', 'c']) await post(member, task._id, { body }).expect(201);
    const first = await ctx.api
      .get(`/api/tasks/${task._id}/comments?limit=2`)
      .set(member.auth)
      .expect(200);
    expect((first.body as Comment[]).map((c) => c.body)).toEqual(['a', 'b']);
    const cursor = first.headers[NEXT_CURSOR_HEADER.toLowerCase()];
    const next = await ctx.api
      .get(`/api/tasks/${task._id}/comments`)
      .query({ cursor, limit: 2 })
      .set(member.auth)
      .expect(200);
    expect((next.body as Comment[]).map((c) => c.body)).toEqual(['c']);
    expect(next.headers[NEXT_CURSOR_HEADER.toLowerCase()]).toBeUndefined();
  });

  it('records comment.added in the history', async () => {
    const task = await newTask();
    const comment = (await post(member, task._id, { body: 'note' })).body as Comment;
    const history = (await ctx.api.get(`/api/tasks/${task._id}/activity`).set(admin.auth))
      .body as Activity[];
    expect(history.at(-1)).toMatchObject({
      type: 'comment.added',
      actor: { _id: member.id },
      data: { commentId: comment._id },
    });
  });

  it('offers the people who can see the task to mention', async () => {
    const task = await newTask();
    const res = await ctx.api.get(`/api/tasks/${task._id}/people`).set(member.auth).expect(200);
    const ids = (res.body as Array<{ _id: string }>).map((person) => person._id);
    expect(ids).toEqual(expect.arrayContaining([admin.id, otherAdmin.id, member.id, teammate.id]));
    expect(ids).not.toContain(outsider.id);
    await ctx.api.get(`/api/tasks/${task._id}/people`).set(outsider.auth).expect(404);
  });

  it('a deleted author leaves the comment with author null', async () => {
    const task = await newTask();
    const gone = await signUp(ctx, 'admin');
    await post(gone, task._id, { body: 'bye' }).expect(201);
    const deleted = await ctx.api.delete(`/api/users/${gone.id}`).set(admin.auth);
    expect([200, 204]).toContain(deleted.status);
    const list = await ctx.api.get(`/api/tasks/${task._id}/comments`).set(admin.auth);
    expect(list.body[0]).toMatchObject({ body: 'bye', author: null });
  });
});
