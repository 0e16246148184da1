import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '@task-manager/shared';
import {
  countDashboardFigures,
  listTaskPageWithCounts,
  readDataVersion,
} from '../../src/tasks/repository.js';
import { VersionedMemo } from '../../src/tasks/versioned-memo.js';
import { createTask, signUp, type Session } from '../helpers/factories.js';
import { captureQueries } from '../helpers/query-capture.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

/**
 * A filtered list's counts (statusSummary) are counted once per data version (repository.ts,
 * countFilteredTasks): every page of a search and every refetch while nothing changed shows the
 * same counts without counting again, and any write, by the API or by hand, is in the next one.
 */
describe(`a filtered list's counts, counted once per data version (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;
  let member: Session;
  const tasks: Task[] = [];

  const summary = async (query: string, who: Session = admin) =>
    (await ctx.api.get(`/api/tasks?${query}`).set(who.auth).expect(200)).body as {
      tasks: Task[];
      statusSummary: Record<string, number>;
      nextCursor: string | null;
    };

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
    member = await signUp(ctx, 'member');
    for (let i = 0; i < 5; i += 1) {
      tasks.push(
        await createTask(ctx, admin, [member.id], {
          title: `Quarterly budget ${i}`,
          priority: i < 3 ? 'High' : 'Low',
          todoChecklist: [{ text: 'Only step', completed: false }],
        }),
      );
    }
    await createTask(ctx, admin, [member.id], { title: 'Something else', priority: 'High' });
  });
  afterAll(() => ctx.close());

  it('shows the same counts on every page, and each write in the next answer', async () => {
    const first = await summary('q=budget&limit=2');
    expect(first.statusSummary).toEqual({
      all: 5,
      pendingTasks: 5,
      inProgressTasks: 0,
      completedTasks: 0,
    });
    const second = await summary(`q=budget&limit=2&cursor=${first.nextCursor}`);
    expect(second.statusSummary).toEqual(first.statusSummary);
    expect(second.tasks.map((t) => t._id)).not.toEqual(first.tasks.map((t) => t._id));

    // Through the API: a member ticks a task's only item (Completed).
    const item = tasks[0]!.todoChecklist[0]!;
    await ctx.api
      .patch(`/api/tasks/${tasks[0]!._id}/todo/${item._id}`)
      .set(member.auth)
      .send({ completed: true })
      .expect(200);
    expect((await summary('q=budget&limit=2')).statusSummary).toMatchObject({
      all: 5,
      pendingTasks: 4,
      completedTasks: 1,
    });
    // By hand: a task renamed out of the search, another's priority changed.
    await sql`update tasks set title = 'Renamed away' where id = ${tasks[1]!._id}`.execute(ctx.db);
    expect((await summary('q=budget')).statusSummary.all).toBe(4);
    // Three budget tasks and 'Something else'.
    expect((await summary('priority=High')).statusSummary.all).toBe(4);
    await sql`update tasks set priority = 'Low' where id = ${tasks[2]!._id}`.execute(ctx.db);
    expect((await summary('priority=High')).statusSummary.all).toBe(3);
    // A member's own counts are theirs, not the admin's remembered ones.
    const other = await signUp(ctx, 'member');
    await createTask(ctx, admin, [other.id], { title: 'Budget of another member' });
    expect((await summary('q=budget')).statusSummary.all).toBe(5);
    expect((await summary('q=budget', member)).statusSummary.all).toBe(4);
  });

  it('does not count again while the data version stays the same', async () => {
    const capture = captureQueries(ctx.db);
    const filter = { words: ['budget'] };
    const page = { sort: 'createdAt' as const, order: 'desc' as const, limit: 3 };
    const countQueries = () =>
      capture.take().filter((query) => /count\(/i.test(query.sql) && !/json/i.test(query.sql));
    const first = await listTaskPageWithCounts(capture.db, {}, filter, undefined, page);
    expect(countQueries().length).toBeGreaterThan(0);
    const again = await listTaskPageWithCounts(capture.db, {}, filter, undefined, page);
    expect(countQueries()).toEqual([]);
    expect(again).toEqual(first);
    await sql`update tasks set status = 'In Progress' where id = ${tasks[3]!._id}`.execute(ctx.db);
    const after = await listTaskPageWithCounts(capture.db, {}, filter, undefined, page);
    expect(countQueries().length).toBeGreaterThan(0);
    expect(after.counts.byStatus['In Progress']).toBe(first.counts.byStatus['In Progress'] + 1);
  });

  it("reads the admin's unfiltered counts (the triggers' counters) once per data version", async () => {
    const capture = captureQueries(ctx.db);
    const page = { sort: 'createdAt' as const, order: 'desc' as const, limit: 3 };
    const counterReads = () =>
      capture.take().filter((query) => /from "task_counts"/.test(query.sql)).length;
    const version = await readDataVersion(ctx.db);
    const first = await listTaskPageWithCounts(capture.db, {}, {}, undefined, page, version);
    expect(counterReads()).toBe(1);
    const again = await listTaskPageWithCounts(capture.db, {}, {}, undefined, page, version);
    expect(counterReads()).toBe(0);
    expect(again).toEqual(first);
    // A write moves the version, and the next page's counts show it.
    await createTask(ctx, admin, [member.id], { title: 'Counted anew' });
    const moved = await readDataVersion(ctx.db);
    const after = await listTaskPageWithCounts(capture.db, {}, {}, undefined, page, moved);
    expect(counterReads()).toBe(1);
    expect(after.counts.total).toBe(first.counts.total + 1);
  });

  it("counts a member's own list once per data version too, and follows their assignments", async () => {
    const capture = captureQueries(ctx.db);
    const scope = { assigneeId: member.id };
    const page = { sort: 'createdAt' as const, order: 'desc' as const, limit: 3 };
    const countQueries = () =>
      capture.take().filter((query) => /count\(/i.test(query.sql) && !/json/i.test(query.sql));
    const first = await listTaskPageWithCounts(capture.db, scope, {}, undefined, page);
    expect(countQueries().length).toBeGreaterThan(0);
    const again = await listTaskPageWithCounts(capture.db, scope, {}, undefined, page);
    expect(countQueries()).toEqual([]);
    expect(again).toEqual(first);
    // A status tab shows the same counts, not counted again.
    await listTaskPageWithCounts(capture.db, scope, { status: 'Pending' }, undefined, page);
    expect(countQueries()).toEqual([]);
    // A task assigned to them, then one taken away from them: each in the next answer.
    const mine = (await summary('', member)).statusSummary;
    expect(mine.all).toBe(first.counts.total);
    const added = await createTask(ctx, admin, [member.id], { title: 'One more for the member' });
    expect((await summary('', member)).statusSummary.all).toBe(mine.all! + 1);
    const other = await signUp(ctx, 'member');
    await ctx.api
      .put(`/api/tasks/${added._id}`)
      .set(admin.auth)
      .send({ assignedTo: [other.id] })
      .expect(200);
    expect((await summary('', member)).statusSummary).toEqual(mine);
    expect((await summary('', other)).statusSummary.all).toBe(1);
  });

  it("remembers a member's dashboard figures per data version until their next task falls due", async () => {
    const capture = captureQueries(ctx.db);
    const someone = await signUp(ctx, 'member');
    const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
    await createTask(ctx, admin, [someone.id], { title: 'Due in an hour', dueDate: inAnHour });
    await createTask(ctx, admin, [someone.id], {
      title: 'Due next week',
      dueDate: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    });
    const scope = { assigneeId: someone.id };
    const counted = () => capture.take().filter((query) => /count\(/i.test(query.sql)).length;
    const version = await readDataVersion(ctx.db);
    const now = new Date().toISOString();
    const first = await countDashboardFigures(capture.db, scope, now, version);
    expect(first).toMatchObject({ counts: { total: 2 }, overdue: 0 });
    expect(counted()).toBeGreaterThan(0);
    const again = await countDashboardFigures(capture.db, scope, now, version);
    expect(counted()).toBe(0);
    expect(again).toEqual(first);
    // Past the first due date, with nothing written: counted afresh, one overdue.
    const later = new Date(Date.parse(inAnHour) + 1000).toISOString();
    const afterDue = await countDashboardFigures(capture.db, scope, later, version);
    expect(counted()).toBeGreaterThan(0);
    expect(afterDue.overdue).toBe(1);
    // A write moves the version: counted afresh.
    await createTask(ctx, admin, [someone.id], { title: 'A third' });
    const moved = await readDataVersion(ctx.db);
    expect(moved).not.toBe(version);
    const third = await countDashboardFigures(capture.db, scope, later, moved);
    expect(counted()).toBeGreaterThan(0);
    expect(third.counts.total).toBe(3);
    // Through the API, the member's dashboard shows the same.
    const dashboard = await ctx.api
      .get('/api/tasks/user-dashboard-data')
      .set(someone.auth)
      .expect(200);
    expect(dashboard.body.statistics).toMatchObject({ totalTasks: 3, overdueTasks: 0 });
  });

  it("remembers the admin's dashboard figures per data version until the next task falls due", async () => {
    const capture = captureQueries(ctx.db);
    const soon = new Date(Date.now() + 1_800_000).toISOString();
    await createTask(ctx, admin, [member.id], { title: 'Due in half an hour', dueDate: soon });
    const counted = () => capture.take().filter((query) => /count\(/i.test(query.sql)).length;
    const version = await readDataVersion(ctx.db);
    const now = new Date().toISOString();
    const first = await countDashboardFigures(capture.db, {}, now, version);
    expect(counted()).toBeGreaterThan(0);
    const again = await countDashboardFigures(capture.db, {}, now, version);
    expect(counted()).toBe(0);
    expect(again).toEqual(first);
    // Past that due date, with nothing written: counted afresh, one more overdue.
    const later = new Date(Date.parse(soon) + 1000).toISOString();
    const afterDue = await countDashboardFigures(capture.db, {}, later, version);
    expect(counted()).toBeGreaterThan(0);
    expect(afterDue.overdue).toBe(first.overdue + 1);
    expect(afterDue.counts).toEqual(first.counts);
    // A write moves the version: counted afresh, and the new task is in the counts.
    await createTask(ctx, admin, [member.id], { title: 'Another' });
    const moved = await readDataVersion(ctx.db);
    const third = await countDashboardFigures(capture.db, {}, later, moved);
    expect(counted()).toBeGreaterThan(0);
    expect(third.counts.total).toBe(first.counts.total + 1);
    // Through the API, the admin's dashboard shows the database's figures.
    const dashboard = await ctx.api.get('/api/tasks/dashboard-data').set(admin.auth).expect(200);
    const total = await ctx.db
      .selectFrom('tasks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(dashboard.body.statistics.totalTasks).toBe(Number(total.n));
  });
});

describe('VersionedMemo', () => {
  it("keeps the newest version's values only, and never an older request's", async () => {
    const memo = new VersionedMemo<number>(2);
    const db = {};
    let computed = 0;
    const value = (n: number) => async () => {
      computed += 1;
      return n;
    };
    expect(await memo.get(db, 1, 'a', value(10))).toBe(10);
    expect(await memo.get(db, 1, 'a', value(11))).toBe(10);
    expect(computed).toBe(1);
    // A newer version starts afresh.
    expect(await memo.get(db, 2, 'a', value(20))).toBe(20);
    // An older request computes, and what it computed is not kept.
    expect(await memo.get(db, 1, 'a', value(12))).toBe(12);
    expect(await memo.get(db, 2, 'a', value(21))).toBe(20);
    // Bounded: the least recently used goes first.
    await memo.get(db, 2, 'b', value(30));
    await memo.get(db, 2, 'a', value(22));
    await memo.get(db, 2, 'c', value(40));
    expect(await memo.get(db, 2, 'a', value(23))).toBe(20);
    expect(await memo.get(db, 2, 'b', value(31))).toBe(31);
    // Another database has memos of its own.
    expect(await memo.get({}, 2, 'a', value(50))).toBe(50);
  });
});
