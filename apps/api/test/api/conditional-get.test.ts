import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '@task-manager/shared';
import { createTask, signUp, uploadPhoto, type Session } from '../helpers/factories.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

/**
 * ETag / If-None-Match on the task reads (issue 19): an unchanged answer is a 304 without a
 * body; every kind of change to what an answer shows gives it a new ETag.
 */
describe(`conditional GETs of task lists, tasks and dashboards (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;
  let member: Session;
  let task: Task;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
    member = await signUp(ctx, 'member');
    task = await createTask(ctx, admin, [member.id]);
  });
  afterAll(() => ctx.close());

  /** The reads watched: each as admin and member where both may read it. */
  const reads = () => [
    { name: 'admin list', path: '/api/tasks', who: admin },
    { name: 'admin cards', path: '/api/tasks?view=card&limit=5', who: admin },
    { name: 'member list', path: '/api/tasks', who: member },
    { name: 'search', path: '/api/tasks?q=quarterly', who: admin },
    { name: 'task', path: `/api/tasks/${task._id}`, who: admin },
    { name: 'member task', path: `/api/tasks/${task._id}`, who: member },
    { name: 'admin dashboard', path: '/api/tasks/dashboard-data', who: admin },
    { name: 'member dashboard', path: '/api/tasks/user-dashboard-data', who: member },
  ];

  const etagsOf = async () => {
    const tags: Record<string, string> = {};
    for (const read of reads()) {
      const res = await ctx.api.get(read.path).set(read.who.auth).expect(200);
      tags[read.name] = res.headers.etag as string;
    }
    return tags;
  };

  /** Runs `change` and expects every read named in `moved` to answer with a new ETag. */
  const expectMoved = async (moved: string[], change: () => Promise<unknown>) => {
    const before = await etagsOf();
    await change();
    const after = await etagsOf();
    for (const name of moved) {
      expect(after[name], `${name} after the change`).not.toBe(before[name]);
      // And the old ETag is no longer answered 304.
      const read = reads().find((each) => each.name === name)!;
      await ctx.api
        .get(read.path)
        .set(read.who.auth)
        .set('If-None-Match', before[name]!)
        .expect(200);
    }
  };

  it('answers an unchanged read 304 without a body, with the validator headers', async () => {
    for (const read of reads()) {
      const first = await ctx.api.get(read.path).set(read.who.auth).expect(200);
      const etag = first.headers.etag as string;
      expect(etag, read.name).toBeTruthy();
      expect(first.headers['cache-control'], read.name).toBe('private, no-cache');
      const again = await ctx.api
        .get(read.path)
        .set(read.who.auth)
        .set('If-None-Match', etag)
        .expect(304);
      expect(again.text ?? '', read.name).toBe('');
      expect(again.headers.etag, read.name).toBe(etag);
      // Weak comparison, and a list of tags.
      await ctx.api
        .get(read.path)
        .set(read.who.auth)
        .set('If-None-Match', `W/"nothing", ${etag.replace(/^W\//, '')}`)
        .expect(304);
      await ctx.api
        .get(read.path)
        .set(read.who.auth)
        .set('If-None-Match', 'W/"nothing"')
        .expect(200);
    }
  });

  it('tags each answer with the data version as it stood when the request came', async () => {
    // The version is read with the session check (one statement): it must be the current one.
    for (let round = 0; round < 2; round++) {
      const { version } = await ctx.db
        .selectFrom('data_version')
        .select('version')
        .where('id', '=', 1)
        .executeTakeFirstOrThrow();
      const tags = await etagsOf();
      for (const [name, tag] of Object.entries(tags)) {
        const shown = name.endsWith('task') ? /\/(\d+)"$/.exec(tag) : /^W\/"(\d+)-/.exec(tag);
        expect(Number(shown?.[1]), `${name}: ${tag}`).toBe(Number(version));
      }
      await ctx.api
        .patch(`/api/tasks/${task._id}/todo/${task.todoChecklist[0]!._id}`)
        .set(admin.auth)
        .send({ completed: round === 0 })
        .expect(200);
    }
  });

  it('gives each caller and each query a tag of its own', async () => {
    const tags = await etagsOf();
    expect(tags['admin list']).not.toBe(tags['member list']);
    expect(tags['admin list']).not.toBe(tags['admin cards']);
    expect(tags['admin dashboard']).not.toBe(tags['member dashboard']);
    // The member's tag is never the admin's answer.
    await ctx.api
      .get('/api/tasks')
      .set(member.auth)
      .set('If-None-Match', tags['admin list']!)
      .expect(200);
    const pending = await ctx.api.get('/api/tasks?status=Pending').set(admin.auth).expect(200);
    expect(pending.headers.etag).not.toBe(tags['admin list']);
  });

  it('still answers a member 404 for a task not theirs, whatever they send', async () => {
    const other = await signUp(ctx, 'member');
    const { etag } = (await ctx.api.get(`/api/tasks/${task._id}`).set(admin.auth)).headers;
    await ctx.api
      .get(`/api/tasks/${task._id}`)
      .set(other.auth)
      .set('If-None-Match', etag as string)
      .expect(404);
    await ctx.api
      .get(`/api/tasks/${task._id}`)
      .set(other.auth)
      .set('If-None-Match', '*')
      .expect(404);
  });

  it('moves every tag when a checklist item is ticked', async () => {
    const item = task.todoChecklist[0]!;
    await expectMoved(
      reads().map((read) => read.name),
      () =>
        ctx.api
          .patch(`/api/tasks/${task._id}/todo/${item._id}`)
          .set(member.auth)
          .send({ completed: true })
          .expect(200),
    );
  });

  it('moves the tags when an assignee is added, and the new assignee sees it', async () => {
    const teammate = await signUp(ctx, 'member');
    const before = await ctx.api.get('/api/tasks').set(teammate.auth).expect(200);
    expect(before.body.tasks).toEqual([]);
    await expectMoved(['admin list', 'admin cards', 'task', 'member task'], () =>
      ctx.api
        .put(`/api/tasks/${task._id}`)
        .set(admin.auth)
        .send({ assignedTo: [member.id, teammate.id] })
        .expect(200),
    );
    await ctx.api
      .get('/api/tasks')
      .set(teammate.auth)
      .set('If-None-Match', before.headers.etag as string)
      .expect(200);
  });

  it('moves the tags when a label of the task is renamed or recoloured', async () => {
    const label = await ctx.api
      .post('/api/labels')
      .set(admin.auth)
      .send({ name: 'Backend', color: '#AA3300' })
      .expect(201);
    await ctx.api
      .put(`/api/tasks/${task._id}`)
      .set(admin.auth)
      .send({ labels: [label.body._id] })
      .expect(200);
    const shown = ['admin list', 'admin cards', 'member list', 'task', 'member task'];
    await expectMoved(shown, () =>
      ctx.api
        .put(`/api/labels/${label.body._id}`)
        .set(admin.auth)
        .send({ name: 'Server' })
        .expect(200),
    );
    await expectMoved(shown, () =>
      ctx.api
        .put(`/api/labels/${label.body._id}`)
        .set(admin.auth)
        .send({ color: '#0033AA' })
        .expect(200),
    );
    const renamed = await ctx.api.get(`/api/tasks/${task._id}`).set(admin.auth).expect(200);
    expect(renamed.body.labels).toEqual([
      { _id: label.body._id, name: 'Server', color: '#0033aa' },
    ]);
  });

  it("moves the tags when an assignee's name or photo changes, or they are deactivated", async () => {
    const shown = ['admin list', 'admin cards', 'member list', 'task', 'member task'];
    await expectMoved(shown, () =>
      ctx.api
        .put('/api/auth/profile')
        .set(member.auth)
        .send({ name: 'Renamed Member' })
        .expect(200),
    );
    const photo = await uploadPhoto(ctx);
    await expectMoved(shown, () =>
      ctx.api
        .put('/api/auth/profile')
        .set(member.auth)
        .send({ profileImageUrl: photo })
        .expect(200),
    );
    const shownToAdmin = await ctx.api.get(`/api/tasks/${task._id}`).set(admin.auth).expect(200);
    expect(shownToAdmin.body.assignedTo[0]).toMatchObject({
      name: 'Renamed Member',
      profileImageUrl: photo,
    });
    const teammate = await signUp(ctx, 'member');
    await ctx.api
      .put(`/api/tasks/${task._id}`)
      .set(admin.auth)
      .send({ assignedTo: [member.id, teammate.id] })
      .expect(200);
    await expectMoved(['admin list', 'task'], () =>
      ctx.api
        .patch(`/api/users/${teammate.id}`)
        .set(admin.auth)
        .send({ active: false })
        .expect(200),
    );
  });

  it('moves the tags when a file is uploaded, and the search tag when a comment is added', async () => {
    await expectMoved(['admin list', 'task', 'member task'], () =>
      ctx.api
        .post(`/api/tasks/${task._id}/files`)
        .set(admin.auth)
        .attach('file', Buffer.from('notes'), 'notes.txt')
        .expect(201),
    );
    const search = `/api/tasks?q=zeppelin`;
    const before = await ctx.api.get(search).set(admin.auth).expect(200);
    expect(before.body.tasks).toEqual([]);
    await ctx.api
      .post(`/api/tasks/${task._id}/comments`)
      .set(admin.auth)
      .send({ body: 'The zeppelin lands at noon' })
      .expect(201);
    const after = await ctx.api
      .get(search)
      .set(admin.auth)
      .set('If-None-Match', before.headers.etag as string)
      .expect(200);
    expect(after.body.tasks.map((each: Task) => each._id)).toEqual([task._id]);
  });

  it('moves the tags when a task is created, moved or deleted', async () => {
    let created: Task | undefined;
    await expectMoved(
      ['admin list', 'member list', 'admin dashboard', 'member dashboard'],
      async () => {
        created = await createTask(ctx, admin, [member.id]);
      },
    );
    await expectMoved(['admin list', 'member list', 'admin dashboard', 'member dashboard'], () =>
      ctx.api
        .put(`/api/tasks/${created!._id}/status`)
        .set(member.auth)
        .send({ status: 'Completed' })
        .expect(200),
    );
    await expectMoved(['admin list', 'member list', 'admin dashboard', 'member dashboard'], () =>
      ctx.api.delete(`/api/tasks/${created!._id}`).set(admin.auth).expect(200),
    );
  });

  it('moves the dashboard tag when a task becomes overdue, with no write at all', async () => {
    await createTask(ctx, admin, [member.id], {
      dueDate: new Date(Date.now() + 1500).toISOString(),
    });
    const before = await ctx.api.get('/api/tasks/dashboard-data').set(admin.auth).expect(200);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const after = await ctx.api
      .get('/api/tasks/dashboard-data')
      .set(admin.auth)
      .set('If-None-Match', before.headers.etag as string)
      .expect(200);
    expect(after.body.statistics.overdueTasks).toBe(before.body.statistics.overdueTasks + 1);
    // The overdue filter's window moves with every moment: never a 304 of an older answer.
    const overdue = await ctx.api.get('/api/tasks?due=overdue').set(admin.auth).expect(200);
    await ctx.api
      .get('/api/tasks?due=overdue')
      .set(admin.auth)
      .set('If-None-Match', overdue.headers.etag as string)
      .expect(200);
  });

  it("keeps If-Match working with the task's read ETag", async () => {
    const read = await ctx.api.get(`/api/tasks/${task._id}`).set(admin.auth).expect(200);
    const etag = read.headers.etag as string;
    expect(etag).toMatch(new RegExp(`^"${read.body.updatedAt}/\\d+"$`));
    await ctx.api
      .put(`/api/tasks/${task._id}`)
      .set(admin.auth)
      .set('If-Match', etag)
      .send({ title: 'Edited with If-Match' })
      .expect(200);
    await ctx.api
      .put(`/api/tasks/${task._id}`)
      .set(admin.auth)
      .set('If-Match', etag)
      .send({ title: 'Edited again from the old version' })
      .expect(409);
  });
});
