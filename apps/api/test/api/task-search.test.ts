import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { type Task, type TaskListResponse } from '@task-manager/shared';
import { createTask, setDueDate, signUp, type Session } from '../helpers/factories.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';
import { captureQueries } from '../helpers/query-capture.js';
import { onlyOn } from '../helpers/only-on.js';
import { listTaskPage } from '../../src/tasks/repository.js';
import { forgetKeptMatches } from '../../src/tasks/search-matches.js';

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
  /** The ids of every page of a search, following its cursor. */
  const allPages = async (session: Session, q: string, query: Record<string, string>) => {
    const found: string[] = [];
    let page = await search(session, q, query);
    for (;;) {
      found.push(...page.tasks.map((task) => task._id));
      if (!page.nextCursor) return found;
      page = await search(session, q, { ...query, cursor: page.nextCursor });
    }
  };

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

  it("keeps a task's priority through every change to its text, and finds it by no word", async () => {
    const task = await createTask(ctx, admin, [ana.id], {
      title: 'Lighthouse inspection',
      priority: 'Low',
      todoChecklist: [{ text: 'Check the lamp' }],
    });
    const byPriority = async (priority: string) =>
      (await search(admin, 'lighthouse', { priority })).tasks.map((found) => found._id);
    expect(await byPriority('Low')).toEqual([task._id]);
    expect(await byPriority('High')).toEqual([]);
    expect(await byPriority('High,Medium')).toEqual([]);
    expect(await byPriority('Low,Medium')).toEqual([task._id]);
    await ctx.api
      .put(`/api/tasks/${task._id}`)
      .set(admin.auth)
      .send({ priority: 'High' })
      .expect(200);
    expect(await byPriority('High')).toEqual([task._id]);
    expect(await byPriority('Low')).toEqual([]);
    // Every writer of the task's text writes its priority again with it.
    await ctx.api
      .put(`/api/tasks/${task._id}`)
      .set(admin.auth)
      .send({ title: 'Lighthouse repairs', todoChecklist: [{ text: 'Paint the tower' }] })
      .expect(200);
    await ctx.api
      .post(`/api/tasks/${task._id}/comments`)
      .set(admin.auth)
      .send({ body: 'Scaffolding ordered' })
      .expect(201);
    expect(await byPriority('High')).toEqual([task._id]);
    expect(await byPriority('High,Low')).toEqual([task._id]);
    expect((await search(admin, 'scaffolding', { priority: 'High' })).tasks).toHaveLength(1);
    expect(await byPriority('Medium')).toEqual([]);
    // Words are searched in the text alone: neither a priority's name nor its token finds it.
    for (const q of ['lighthouse high', 'zqphigh', 'zqp', 'zq']) {
      expect(await found(admin, q), q).toEqual([]);
    }
    await ctx.api.delete(`/api/tasks/${task._id}`).set(admin.auth).expect(200);
    expect(await byPriority('High')).toEqual([]);
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

  it('narrows by priority and due date and sorts by every key, paging like the plain list', async () => {
    const DAY = 86_400_000;
    const priorities = ['High', 'Low', 'Medium', 'High', 'Low', 'High'] as const;
    const made: Task[] = [];
    for (const [n, priority] of priorities.entries()) {
      made.push(await createTask(ctx, admin, [ana.id], { title: `Harbor survey ${n}`, priority }));
    }
    // Due dates set in the database: the search's keys must follow any writer (triggers). Two
    // tasks share a due date, so ties go by id.
    const dueDays = [-3, 20, -1, 20, 40, -3];
    for (const [n, task] of made.entries()) {
      await ctx.db
        .updateTable('tasks')
        .set({ due_date: new Date(Date.now() + dueDays[n]! * DAY).toISOString() })
        .where('id', '=', task._id)
        .execute();
    }
    const all = (await search(admin, 'harbor', { limit: '100' })).tasks;
    expect(all).toHaveLength(made.length);

    const rank = { High: 3, Medium: 2, Low: 1 } as const;
    const compare = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
    const keyOf = {
      createdAt: (task: Task) => [task.createdAt, task._id],
      dueDate: (task: Task) => [task.dueDate, task._id],
      priority: (task: Task) => [rank[task.priority], task.createdAt, task._id],
      title: (task: Task) => [task.title.toLowerCase(), task._id],
      updatedAt: (task: Task) => [task.updatedAt, task._id],
    };
    const now = Date.now();
    const later = Date.UTC(
      new Date(now).getUTCFullYear(),
      new Date(now).getUTCMonth(),
      new Date(now).getUTCDate() + 7,
    );
    const dueFilters: Record<string, (task: Task) => boolean> = {
      none: () => true,
      overdue: (task) => Date.parse(task.dueDate) < now && task.status !== 'Completed',
      later: (task) => Date.parse(task.dueDate) >= later,
    };
    for (const priority of ['', 'High', 'Medium', 'High,Low', 'Low,Medium,High']) {
      for (const [due, keep] of Object.entries(dueFilters)) {
        // On SQLite, a broad search walks the sort's index (every harbor task, 6 of a few
        // dozen, for pages of 2: the tasks' for updatedAt, the keys' for due date, priority and
        // title); a narrow one reads its matches first.
        for (const sort of ['createdAt', 'dueDate', 'priority', 'title', 'updatedAt'] as const) {
          for (const order of ['asc', 'desc'] as const) {
            const expected = all
              .filter((task) => !priority || priority.split(',').includes(task.priority))
              .filter(keep)
              .sort((a, b) => {
                const [ka, kb] = [keyOf[sort](a), keyOf[sort](b)];
                const i = ka.findIndex((value, j) => value !== kb[j]);
                const sign = i < 0 ? 0 : compare(ka[i]!, kb[i]!);
                return order === 'asc' ? sign : -sign;
              })
              .map((task) => task._id);
            const query: Record<string, string> = { sort, order, limit: '2' };
            if (priority) query.priority = priority;
            if (due !== 'none') query.due = due;
            const seen: string[] = [];
            let page = await search(admin, 'harbor', query);
            const where = `priority=${priority} due=${due} sort=${sort} ${order}`;
            expect(page.statusSummary.all, where).toBe(expected.length);
            for (;;) {
              seen.push(...page.tasks.map((task) => task._id));
              if (!page.nextCursor) break;
              page = await search(admin, 'harbor', { ...query, cursor: page.nextCursor });
            }
            expect(seen, where).toEqual(expected);
          }
        }
      }
    }

    // An edit through the API moves a task in and out of what a filter finds, at once.
    const moved = made[1]!;
    const high = async () =>
      (await search(admin, 'harbor', { priority: 'High', due: 'overdue' })).tasks.map(
        (task) => task._id,
      );
    expect(await high()).not.toContain(moved._id);
    await ctx.api
      .put(`/api/tasks/${moved._id}`)
      .set(admin.auth)
      .send({ priority: 'High' })
      .expect(200);
    await ctx.db
      .updateTable('tasks')
      .set({ due_date: new Date(now - 2 * DAY).toISOString() })
      .where('id', '=', moved._id)
      .execute();
    expect(await high()).toContain(moved._id);
    // The member, whose search is read through their assignments, finds the same.
    const mine = await search(ana, 'harbor', { priority: 'High', due: 'overdue' });
    expect(mine.tasks.map((task) => task._id)).toEqual(await high());
  });
  it('pages newest and oldest first by creation time, whatever order the tasks were written in', async () => {
    const made: Task[] = [];
    for (let n = 0; n < 26; n++) {
      made.push(
        await createTask(ctx, admin, n % 3 === 0 ? [ben.id] : [ana.id], {
          title: `Lighthouse log ${n}`,
        }),
      );
    }
    // Creation times written in the database, out of the order the tasks were made: shared
    // seconds, shared milliseconds (ties go by id), the past, before 1970, the future.
    const times = [
      '2026-03-01T10:00:00.500Z',
      '2026-03-01T10:00:00.100Z',
      '2026-03-01T10:00:00.100Z',
      '2026-03-01T10:00:00.900Z',
      '1999-12-31T23:59:59.999Z',
      '2031-07-04T00:00:00.000Z',
      '1965-05-05T05:05:05.050Z',
      '2026-03-01T10:00:01.000Z',
      '2026-02-28T10:00:00.000Z',
      '2026-03-01T10:00:00.100Z',
      '2026-03-01T09:59:59.999Z',
      // Twelve in one second, the latest written first: its row has that second's lowest id,
      // below what a page of the newest and its look-ahead read by id.
      '2030-06-01T12:00:00.999Z',
      '2030-06-01T12:00:00.000Z',
      '2030-06-01T12:00:00.300Z',
      '2030-06-01T12:00:00.300Z',
      '2030-06-01T12:00:00.100Z',
      '2030-06-01T12:00:00.700Z',
      '2030-06-01T12:00:00.200Z',
      '2030-06-01T12:00:00.050Z',
      '2030-06-01T12:00:00.600Z',
      '2030-06-01T12:00:00.400Z',
      '2030-06-01T12:00:00.500Z',
      '2030-06-01T12:00:00.800Z',
      // Written last in that second (its highest id), yet its earliest: above what a page of
      // the oldest and its look-ahead read by id.
      '2030-06-01T12:00:00.001Z',
    ];
    for (const [n, createdAt] of times.entries()) {
      await ctx.db
        .updateTable('tasks')
        .set({ created_at: createdAt })
        .where('id', '=', made[n]!._id)
        .execute();
    }
    const listed = (session: Session, query: Record<string, string>) =>
      allPages(session, 'lighthouse', query);
    const expectedFor = async (session: Session) => {
      const all = (await search(session, 'lighthouse', { limit: '100' })).tasks;
      return all
        .map((task) => [task.createdAt, task._id] as const)
        .sort(([a, ai], [b, bi]) => (a === b ? (ai < bi ? 1 : -1) : a < b ? 1 : -1))
        .map(([, id]) => id);
    };
    const oldestFirst = { sort: 'createdAt', order: 'asc' };
    for (const session of [admin, ana, ben]) {
      const expected = await expectedFor(session);
      expect(expected.length).toBe(session === admin ? 26 : session === ana ? 17 : 9);
      for (const limit of ['1', '2', '3', '5', '100']) {
        expect(await listed(session, { limit }), `limit ${limit}`).toEqual(expected);
        // Oldest first: the same pages from the other end of the index, in the reverse order.
        expect(await listed(session, { limit, ...oldestFirst }), `asc, limit ${limit}`).toEqual(
          [...expected].reverse(),
        );
      }
    }
    // The oldest task is first: the one created before 1970.
    expect((await search(admin, 'lighthouse', { limit: '1', ...oldestFirst })).tasks[0]!._id).toBe(
      made[6]!._id,
    );
    // The newest task is first, and a task whose creation time moves moves with it.
    expect((await expectedFor(admin)).slice(0, 2)).toEqual([made[5]!._id, made[11]!._id]);
    await ctx.db
      .updateTable('tasks')
      .set({ created_at: '2032-01-01T00:00:00.000Z' })
      .where('id', '=', made[6]!._id)
      .execute();
    const first = await search(admin, 'lighthouse', { limit: '1' });
    expect(first.tasks.map((task) => task._id)).toEqual([made[6]!._id]);
    expect(await listed(admin, { limit: '2' })).toEqual(await expectedFor(admin));
    expect(await listed(admin, { limit: '2', ...oldestFirst })).toEqual(
      (await expectedFor(admin)).reverse(),
    );
    // After the move the task is found by its words as before, and by nothing else.
    expect((await search(admin, 'lighthouse log 6')).tasks.map((task) => task._id)).toEqual([
      made[6]!._id,
    ]);
    if (ENGINE === 'sqlite') {
      // The rule the newest-first page relies on (migration 2026-11-27-601).
      const { rows } = await sql<{ below: number }>`select count(*) as below
        from task_search_keys where search_id < (cast(strftime('%s', created_at) as integer) << 24)`.execute(
        ctx.db,
      );
      expect(Number(rows[0]!.below)).toBe(0);
    }
  });

  it('pages a broad search in title order when its matches lie together, past where a walk gives way', async () => {
    // "Zebra" starts its tasks' titles: in title order they lie together after all the others.
    const zebras: Task[] = [];
    for (let n = 0; n < 6; n++) {
      zebras.push(await createTask(ctx, admin, [ben.id], { title: `Zebra crossing ${n}` }));
    }
    for (let n = 0; n < 12; n++) {
      await createTask(ctx, admin, [ana.id], { title: `Aardvark chores ${n}` });
    }
    const byTitle = zebras
      .map((task) => [task.title.toLowerCase(), task._id] as const)
      .sort(([a, ai], [b, bi]) => (a === b ? (ai < bi ? -1 : 1) : a < b ? -1 : 1))
      .map(([, id]) => id);
    const listed = (query: Record<string, string>) => allPages(admin, 'zebra', query);
    for (const limit of ['1', '2', '4']) {
      expect(await listed({ sort: 'title', order: 'asc', limit })).toEqual(byTitle);
      expect(await listed({ sort: 'title', order: 'desc', limit })).toEqual([...byTitle].reverse());
    }
    if (ENGINE !== 'sqlite') return;
    // SQLite walks the keys in title order, but at most 5 here: ascending, it gives way before
    // the zebras and reads its matches first; at the same data version it reads them first at
    // once. Descending, the zebras come first and the walk fills the page.
    const { version } = await ctx.db
      .selectFrom('data_version')
      .select('version')
      .executeTakeFirstOrThrow();
    const capture = captureQueries(ctx.db);
    // Each page reads the index itself: a word set asked for twice is kept (tested below).
    const page = (order: 'asc' | 'desc') => {
      forgetKeptMatches(capture.db);
      return listTaskPage(
        capture.db,
        {},
        { words: ['zebra'] },
        {
          sort: 'title',
          order,
          limit: 2,
          walkSortIndex: true,
          walkCap: 5,
          dataVersion: Number(version),
        },
      );
    };
    // (Kysely also records the walk's subqueries on their own: left out here.)
    const ways = () =>
      capture
        .take()
        .map(({ sql }) =>
          /from \(select/.test(sql)
            ? 'walked'
            : /from "task_search" inner join/.test(sql)
              ? 'read first'
              : undefined,
        )
        .filter((way) => way !== undefined);
    expect((await page('asc')).map((row) => row.id)).toEqual(byTitle.slice(0, 2));
    expect(ways()).toEqual(['walked', 'read first']);
    expect((await page('asc')).map((row) => row.id)).toEqual(byTitle.slice(0, 2));
    expect(ways()).toEqual(['read first']);
    expect((await page('desc')).map((row) => row.id)).toEqual([...byTitle].reverse().slice(0, 2));
    expect(ways()).toEqual(['walked']);
    // A status tab is checked on every key walked: the two done zebras, last in title order
    // but for the one done after them.
    const done = [byTitle[1]!, byTitle[3]!];
    await ctx.db
      .updateTable('tasks')
      .set({ status: 'Completed' })
      .where('id', 'in', done)
      .execute();
    forgetKeptMatches(capture.db);
    const walkedTab = await listTaskPage(
      capture.db,
      {},
      { words: ['zebra'], status: 'Completed' },
      { sort: 'title', order: 'desc', limit: 2, walkSortIndex: true, walkCap: 100, dataVersion: 0 },
    );
    expect(ways()).toEqual(['walked']);
    expect(walkedTab.map((row) => row.id)).toEqual([...done].reverse());
  });

  onlyOn('sqlite', 'PostgreSQL keeps no keys beside its full-text rows').it(
    "keeps every full-text row's key equal to its task's own values",
    async () => {
      // After every create, edit and move above: status, creation time, priority, due date and
      // lower(title), each written whole when the task was created (migration 607) and followed
      // by the triggers since; and the task's own copy of its key's id (migration 608).
      const { rows } = await sql<{ id: string }>`select t.id from tasks t
      left join task_search_keys k on k.task_id = t.id
      where k.task_id is null or k.status is not t.status or k.created_at is not t.created_at
        or k.priority is not t.priority or k.due_date is not t.due_date
        or k.title_key is not lower(t.title) or t.search_id is not k.search_id`.execute(ctx.db);
      expect(rows).toEqual([]);
      const { rows: counted } = await sql<{ count: number }>`select count(*) as count
      from task_search_keys`.execute(ctx.db);
      expect(Number(counted[0]!.count)).toBeGreaterThan(50);
    },
  );

  it('pages a broad search in last-update order, status tabs and filters included', async () => {
    const made: Task[] = [];
    for (let n = 0; n < 12; n++) {
      made.push(
        await createTask(ctx, admin, [ben.id], {
          title: `Pelican count ${n}`,
          priority: n % 2 ? 'High' : 'Low',
        }),
      );
    }
    // Touch them out of creation order, and move two along.
    for (const n of [5, 1, 6, 2]) {
      await ctx.api
        .put(`/api/tasks/${made[n]!._id}`)
        .set(admin.auth)
        .send({ description: `Seen ${n}` })
        .expect(200);
    }
    for (const n of [3, 4]) {
      await ctx.api
        .put(`/api/tasks/${made[n]!._id}/status`)
        .set(admin.auth)
        .send({ status: 'In Progress' })
        .expect(200);
    }
    // Pages of one (two rows read: the second tells whether a next page exists), and 12
    // matches of fewer than 72 tasks: SQLite walks the updatedAt index (walksSortIndex).
    const total = (await search(admin, '')).statusSummary.all;
    expect(made.length * made.length).toBeGreaterThan(2 * total);
    const all = (await search(admin, 'pelican', { limit: '100' })).tasks;
    expect(all).toHaveLength(made.length);
    const compare = (a: Task, b: Task) =>
      a.updatedAt < b.updatedAt ? -1 : a.updatedAt > b.updatedAt ? 1 : a._id < b._id ? -1 : 1;
    const extras: Array<Record<string, string>> = [
      {},
      { status: 'In Progress' },
      { priority: 'High' },
    ];
    for (const extra of extras) {
      for (const order of ['asc', 'desc'] as const) {
        const expected = all
          .filter((task) => !extra.status || task.status === extra.status)
          .filter((task) => !extra.priority || task.priority === extra.priority)
          .sort((a, b) => (order === 'asc' ? compare(a, b) : compare(b, a)))
          .map((task) => task._id);
        const query = { ...extra, sort: 'updatedAt', order, limit: '1' };
        const seen: string[] = [];
        let page = await search(admin, 'pelican', query);
        for (;;) {
          seen.push(...page.tasks.map((task) => task._id));
          if (!page.nextCursor) break;
          page = await search(admin, 'pelican', { ...query, cursor: page.nextCursor });
        }
        expect(seen, JSON.stringify(query)).toEqual(expected);
      }
    }
    // A renamed task moves in a search's title order at once (its key follows the title).
    const firstByTitle = async () =>
      (await search(admin, 'pelican', { sort: 'title', order: 'desc', limit: '1' })).tasks[0]!._id;
    expect(await firstByTitle()).toBe(made[9]!._id);
    await ctx.api
      .put(`/api/tasks/${made[0]!._id}`)
      .set(admin.auth)
      .send({ title: 'Pelican survey' })
      .expect(200);
    expect(await firstByTitle()).toBe(made[0]!._id);
    for (const task of made) {
      await ctx.api.delete(`/api/tasks/${task._id}`).set(admin.auth).expect(200);
    }
  });

  it('counts an overdue search exactly as its tasks fall due, and as they are written', async () => {
    // Minutes, not hours: the test sessions' tokens last an hour.
    const STEP = 10 * 60_000;
    const start = Date.now();
    const made: Task[] = [];
    for (const steps of [-1, 1, 2]) {
      const task = await createTask(ctx, admin, [ana.id], { title: `Walrus watch ${steps}` });
      await setDueDate(ctx, task._id, start + steps * STEP);
      made.push(task);
    }
    // The list is read afresh each time; its counts may be remembered: they must agree.
    const overdue = async (session: Session = admin) => {
      const page = await search(session, 'walrus', { due: 'overdue', limit: '100' });
      expect(page.statusSummary.all).toBe(page.tasks.length);
      expect(page.statusSummary.pendingTasks).toBe(page.tasks.length);
      return page.tasks.map((task) => task._id).sort();
    };
    const ids = (...n: number[]) => n.map((i) => made[i]!._id).sort();
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(start);
      expect(await overdue()).toEqual(ids(0));
      vi.setSystemTime(start + STEP - 1);
      expect(await overdue()).toEqual(ids(0));
      // The second task falls due: counted at once, though nothing was written.
      vi.setSystemTime(start + STEP + 1);
      expect(await overdue()).toEqual(ids(0, 1));
      expect(await overdue(ana)).toEqual(ids(0, 1));
      // A clock that reads earlier than the last count (another process, a request that
      // waited) gets its own instant's answer.
      vi.setSystemTime(start + STEP / 2);
      expect(await overdue()).toEqual(ids(0));
      vi.setSystemTime(start + 3 * STEP);
      expect(await overdue()).toEqual(ids(0, 1, 2));
      // A write: the first task done is no longer overdue.
      await ctx.api
        .put(`/api/tasks/${made[0]!._id}/status`)
        .set(admin.auth)
        .send({ status: 'Completed' })
        .expect(200);
      expect(await overdue()).toEqual(ids(1, 2));
      expect(await overdue(ana)).toEqual(ids(1, 2));
    } finally {
      vi.useRealTimers();
    }
    for (const task of made) {
      await ctx.api.delete(`/api/tasks/${task._id}`).set(admin.auth).expect(200);
    }
  });
});
