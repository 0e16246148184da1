import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Task, type TaskListResponse } from '@task-manager/shared';
import { createTask, signUp, type Session } from '../helpers/factories.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

describe(`task search (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;
  let ana: Session;
  let ben: Session;
  const t: Record<string, Task> = {};

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
    ana = await signUp(ctx, 'member');
    ben = await signUp(ctx, 'member');
    const specs: Array<[string, string[], Record<string, unknown>]> = [
      ['deploy', [ana.id], { title: 'Deployment of the API', description: 'Roll it out' }],
      ['cafe', [ana.id], { title: 'Café menu', description: 'Résumé review with ÉLODIE' }],
      [
        'checklist',
        [ben.id],
        {
          title: 'Cluster work',
          description: 'Nothing here',
          todoChecklist: [{ text: 'Configure Kubernetes' }, { text: 'Write runbook' }],
        },
      ],
      ['bens', [ben.id], { title: 'Deploy the docs site', description: 'Static pages' }],
    ];
    for (const [name, assignees, overrides] of specs) {
      t[name] = await createTask(ctx, admin, assignees, overrides);
    }
  });
  afterAll(() => ctx.close());

  const search = async (session: Session, q: string, extra: Record<string, string> = {}) =>
    (
      await ctx.api
        .get('/api/tasks')
        .query({ q, ...extra })
        .set(session.auth)
        .expect(200)
    ).body as TaskListResponse;
  const found = async (session: Session, q: string) =>
    (await search(session, q)).tasks.map((task) => task._id).sort();
  const ids = (...names: string[]) => names.map((name) => t[name]!._id).sort();

  it('matches the start of words ("deplo" finds "deployment")', async () => {
    expect(await found(admin, 'deplo')).toEqual(ids('deploy', 'bens'));
    expect(await found(admin, 'deployment')).toEqual(ids('deploy'));
    expect(await found(admin, 'ployment')).toEqual([]);
  });

  it('ignores case and accents, in the query and in the text', async () => {
    expect(await found(admin, 'DEPLOYMENT')).toEqual(ids('deploy'));
    expect(await found(admin, 'cafe')).toEqual(ids('cafe'));
    expect(await found(admin, 'CAFÉ')).toEqual(ids('cafe'));
    expect(await found(admin, 'resume')).toEqual(ids('cafe'));
    expect(await found(admin, 'élodie')).toEqual(ids('cafe'));
    expect(await found(admin, 'elod')).toEqual(ids('cafe'));
  });

  it('needs every word to match, anywhere in title, description or checklist', async () => {
    expect(await found(admin, 'deploy api')).toEqual(ids('deploy'));
    expect(await found(admin, 'deploy roll')).toEqual(ids('deploy'));
    expect(await found(admin, 'deploy menu')).toEqual([]);
    expect(await found(admin, 'cluster kubern')).toEqual(ids('checklist'));
  });

  it('searches checklist texts', async () => {
    expect(await found(admin, 'kubernetes')).toEqual(ids('checklist'));
    expect(await found(admin, 'runbo')).toEqual(ids('checklist'));
  });

  it('searches comments, and follows a comment edited or deleted', async () => {
    const comment = await ctx.api
      .post(`/api/tasks/${t.cafe!._id}/comments`)
      .set(ana.auth)
      .send({ body: 'The **espresso** machine arrives Thursday' })
      .expect(201);
    expect(await found(admin, 'espres')).toEqual(ids('cafe'));
    expect(await found(ana, 'espresso thursday')).toEqual(ids('cafe'));
    // Another member cannot find the task through its comments either.
    expect(await found(ben, 'espresso')).toEqual([]);

    await ctx.api
      .put(`/api/comments/${comment.body._id}`)
      .set(ana.auth)
      .send({ body: 'The grinder arrives Thursday' })
      .expect(200);
    expect(await found(admin, 'espresso')).toEqual([]);
    expect(await found(admin, 'grinder')).toEqual(ids('cafe'));

    await ctx.api.delete(`/api/comments/${comment.body._id}`).set(ana.auth).expect(200);
    expect(await found(admin, 'grinder')).toEqual([]);
    // The task's own text is still found.
    expect(await found(admin, 'cafe')).toEqual(ids('cafe'));
  });

  it('treats punctuation as a word break, and a query without words as no search', async () => {
    expect(await found(admin, '"deploy"; -- api!')).toEqual(ids('deploy'));
    const all = await search(admin, '%_*()"');
    expect(all.tasks).toHaveLength(4);
  });

  it('follows every change to the text in the same transaction', async () => {
    const task = await createTask(ctx, admin, [ana.id], {
      title: 'Quarterly zebra report',
      todoChecklist: [{ text: 'Count giraffes' }],
    });
    expect(await found(admin, 'zebra')).toEqual([task._id]);
    await ctx.api
      .put(`/api/tasks/${task._id}`)
      .set(admin.auth)
      .send({ title: 'Quarterly okapi report', todoChecklist: [{ text: 'Count lemurs' }] })
      .expect(200);
    expect(await found(admin, 'zebra')).toEqual([]);
    expect(await found(admin, 'giraffes')).toEqual([]);
    expect(await found(admin, 'okapi lemurs')).toEqual([task._id]);
    await ctx.api.delete(`/api/tasks/${task._id}`).set(admin.auth).expect(200);
    expect(await found(admin, 'okapi')).toEqual([]);
  });

  it("finds only a member's own tasks", async () => {
    expect(await found(ana, 'deplo')).toEqual(ids('deploy'));
    expect(await found(ben, 'deplo')).toEqual(ids('bens'));
    expect(await found(ana, 'kubernetes')).toEqual([]);
  });

  it('combines with the filters, sorts, paging and the status summary', async () => {
    const res = await search(admin, 'deplo', { sort: 'title', limit: '1' });
    expect(res.tasks.map((task) => task.title)).toEqual(['Deploy the docs site']);
    expect(res.statusSummary).toEqual({
      all: 2,
      pendingTasks: 2,
      inProgressTasks: 0,
      completedTasks: 0,
    });
    const next = await search(admin, 'deplo', {
      sort: 'title',
      limit: '1',
      cursor: res.nextCursor!,
    });
    expect(next.tasks.map((task) => task.title)).toEqual(['Deployment of the API']);
    expect(next.nextCursor).toBeNull();
    expect(await search(admin, 'deplo', { assignee: ben.id })).toMatchObject({
      tasks: [{ _id: t.bens!._id }],
    });
    expect((await search(admin, 'deplo', { status: 'Completed' })).tasks).toEqual([]);
  });

  it('pages newest first and counts by status as the tasks move, for admins and members', async () => {
    const made: Task[] = [];
    for (const n of [1, 2, 3]) {
      made.push(
        await createTask(ctx, admin, [ana.id], {
          title: `Quarterly audit ${n}`,
          todoChecklist: [{ text: 'Gather' }, { text: 'Report' }],
        }),
      );
    }
    const newestFirst = made.map((task) => task._id).reverse();
    for (const session of [admin, ana]) {
      const first = await search(session, 'quarterly', { limit: '2' });
      const rest = await search(session, 'quarterly', { limit: '2', cursor: first.nextCursor! });
      expect([...first.tasks, ...rest.tasks].map((task) => task._id)).toEqual(newestFirst);
      expect(rest.nextCursor).toBeNull();
      expect(first.statusSummary).toMatchObject({ all: 3, pendingTasks: 3, completedTasks: 0 });
    }
    expect((await search(ben, 'quarterly')).statusSummary.all).toBe(0);

    // Ticking one item moves the task to In Progress, both items to Completed: the search's
    // counts and status tabs follow at once.
    const [one, two] = made;
    const tick = async (task: Task, done: boolean[]) =>
      ctx.api
        .put(`/api/tasks/${task._id}/todo`)
        .set(ana.auth)
        .send({
          todoChecklist: task.todoChecklist.map((item, i) => ({ ...item, completed: done[i] })),
        })
        .expect(200);
    await tick(one!, [true, false]);
    await tick(two!, [true, true]);
    for (const session of [admin, ana]) {
      const all = await search(session, 'quarterly');
      expect(all.statusSummary).toEqual({
        all: 3,
        pendingTasks: 1,
        inProgressTasks: 1,
        completedTasks: 1,
      });
      const completed = await search(session, 'quarterly', { status: 'Completed' });
      expect(completed.tasks.map((task) => task._id)).toEqual([two!._id]);
      const inProgress = await search(session, 'quarterly', { status: 'In Progress' });
      expect(inProgress.tasks.map((task) => task._id)).toEqual([one!._id]);
    }
    // A deleted task leaves the search and its counts.
    await ctx.api.delete(`/api/tasks/${two!._id}`).set(admin.auth).expect(200);
    expect((await search(admin, 'quarterly')).statusSummary).toMatchObject({
      all: 2,
      completedTasks: 0,
    });
  });
});
