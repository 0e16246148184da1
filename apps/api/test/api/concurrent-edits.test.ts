import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages, type Task } from '@task-manager/shared';
import { createTask, signUp, type Session } from '../helpers/factories.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

describe(`no silent overwrites: If-Match on PUT /api/tasks/:id (${ENGINE})`, () => {
  let ctx: TestContext;
  let first: Session;
  let second: Session;
  let member: Session;

  beforeAll(async () => {
    ctx = await createTestContext();
    first = await signUp(ctx, 'admin');
    second = await signUp(ctx, 'admin');
    member = await signUp(ctx, 'member');
  });
  afterAll(() => ctx.close());

  const read = async (id: string) => {
    const res = await ctx.api.get(`/api/tasks/${id}`).set(first.auth).expect(200);
    return { task: res.body as Task, etag: res.headers.etag as string };
  };

  it('GET and PUT answer the version as an ETag (the updatedAt, quoted)', async () => {
    const task = await createTask(ctx, first, [member.id]);
    const { etag } = await read(task._id);
    // GET adds the data version, for If-None-Match (issue 19); If-Match reads the updatedAt.
    expect(etag).toMatch(new RegExp(`^"${task.updatedAt}/\\d+"$`));
    const put = await ctx.api
      .put(`/api/tasks/${task._id}`)
      .set(first.auth)
      .send({ title: 'New' })
      .expect(200);
    expect(put.headers.etag).toBe(`"${put.body.task.updatedAt}"`);
    expect(put.headers.etag).not.toBe(etag);
  });

  it("the second of two admins editing the same version gets 409 with the first's change", async () => {
    const task = await createTask(ctx, first, [member.id]);
    const { etag } = await read(task._id);
    const saved = await ctx.api
      .put(`/api/tasks/${task._id}`)
      .set(first.auth)
      .set('If-Match', etag)
      .send({ title: 'From the first admin' })
      .expect(200);
    const late = await ctx.api
      .put(`/api/tasks/${task._id}`)
      .set(second.auth)
      .set('If-Match', etag)
      .send({ description: 'From the second admin' })
      .expect(409);
    expect(late.body).toEqual({
      message: apiMessages.taskEditConflict,
      code: 'conflict',
      task: saved.body.task,
    });
    expect(late.headers.etag).toBe(`"${saved.body.task.updatedAt}"`);
    const { task: now } = await read(task._id);
    expect(now.title).toBe('From the first admin');
    expect(now.description).toBe(task.description);
    // With the current version, the second admin's change goes through.
    await ctx.api
      .put(`/api/tasks/${task._id}`)
      .set(second.auth)
      .set('If-Match', late.headers.etag as string)
      .send({ description: 'From the second admin' })
      .expect(200);
  });

  it('accepts the updatedAt itself, a weak tag and *; refuses any change since', async () => {
    const task = await createTask(ctx, first, [member.id]);
    await ctx.api
      .put(`/api/tasks/${task._id}`)
      .set(first.auth)
      .set('If-Match', task.updatedAt)
      .send({ priority: 'High' })
      .expect(200);
    const { task: current, etag } = await read(task._id);
    await ctx.api
      .put(`/api/tasks/${task._id}`)
      .set(first.auth)
      .set('If-Match', `W/${etag}`)
      .send({ priority: 'Low' })
      .expect(200);
    await ctx.api
      .put(`/api/tasks/${task._id}`)
      .set(first.auth)
      .set('If-Match', '*')
      .send({ priority: 'Medium' })
      .expect(200);
    // A member's tick also makes a new version.
    const { task: ticked, etag: before } = await read(task._id);
    await ctx.api
      .patch(`/api/tasks/${task._id}/todo/${ticked.todoChecklist[0]!._id}`)
      .set(member.auth)
      .send({ completed: true })
      .expect(200);
    await ctx.api
      .put(`/api/tasks/${task._id}`)
      .set(first.auth)
      .set('If-Match', before)
      .send({ title: 'Stale' })
      .expect(409);
    await ctx.api
      .put(`/api/tasks/${task._id}`)
      .set(first.auth)
      .set('If-Match', '"garbage"')
      .send({ title: 'Stale' })
      .expect(409);
    expect(current.updatedAt).not.toBe(task.updatedAt);
  });

  it('without If-Match, updates keep working as the spec says', async () => {
    const task = await createTask(ctx, first, [member.id]);
    await ctx.api.put(`/api/tasks/${task._id}`).set(first.auth).send({ title: 'A' }).expect(200);
    await ctx.api.put(`/api/tasks/${task._id}`).set(second.auth).send({ title: 'B' }).expect(200);
    expect((await read(task._id)).task.title).toBe('B');
  });

  it('of many concurrent edits with the same If-Match, exactly one wins', async () => {
    const task = await createTask(ctx, first, [member.id]);
    const { etag } = await read(task._id);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        ctx.api
          .put(`/api/tasks/${task._id}`)
          .set(index % 2 ? first.auth : second.auth)
          .set('If-Match', etag)
          .send({ title: `Edit ${index}` }),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409]);
    const winner = answers.find((answer) => answer.status === 200)!;
    expect((await read(task._id)).task.title).toBe(winner.body.task.title);
    for (const loser of answers.filter((answer) => answer.status === 409)) {
      expect(loser.body.task.title).toBe(winner.body.task.title);
    }
  });

  it('every change gives a new version, even within one millisecond', async () => {
    const task = await createTask(ctx, first, [member.id]);
    const versions = new Set<string>([task.updatedAt]);
    for (let index = 0; index < 5; index++) {
      const res = await ctx.api
        .put(`/api/tasks/${task._id}`)
        .set(first.auth)
        .send({ title: `T${index}` })
        .expect(200);
      versions.add(res.body.task.updatedAt as string);
    }
    expect(versions.size).toBe(6);
  });
});
