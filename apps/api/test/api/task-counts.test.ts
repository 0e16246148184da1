import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Task, TaskPriority, TaskStatus } from '@task-manager/shared';
import { migrateToLatest } from '../../src/db/database.js';
import type { Database } from '../../src/db/tables.js';
import { countOverdueTasks } from '../../src/tasks/repository.js';
import { openDatabaseBefore } from '../helpers/databases.js';
import { createTask, signUp, type Session } from '../helpers/factories.js';
import { tempDir } from '../helpers/server-process.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

/**
 * `task_counts` and `task_due_days` are kept by triggers on `tasks`: after every kind of write
 * each must equal a real grouped count, and the admin's figures built from them (status summary,
 * charts, overdue count) must be those of a real count.
 */

type Counts = Record<string, number>;
const key = (status: string, priority: string) => `${status}/${priority}`;

/** The counter table, without the (status, priority) pairs that no task has any more. */
async function counterTable(db: Kysely<Database>): Promise<Counts> {
  const rows = await db.selectFrom('task_counts').selectAll().execute();
  return Object.fromEntries(
    rows
      .filter((row) => Number(row.count) !== 0)
      .map((r) => [key(r.status, r.priority), Number(r.count)]),
  );
}

/** What the counter table must say: every task counted by (status, priority). */
async function realCounts(db: Kysely<Database>): Promise<Counts> {
  const { rows } = await sql<{ status: string; priority: string; count: number }>`
    select status, priority, count(*) as count from tasks group by 1, 2`.execute(db);
  return Object.fromEntries(rows.map((r) => [key(r.status, r.priority), Number(r.count)]));
}

/** The per-day table, without the (status, day) pairs that no task has any more. */
async function dueDaysTable(db: Kysely<Database>): Promise<Counts> {
  const rows = await db.selectFrom('task_due_days').selectAll().execute();
  return Object.fromEntries(
    rows
      .filter((row) => Number(row.count) !== 0)
      .map((r) => [key(r.status, r.due_day), Number(r.count)]),
  );
}

/** What the per-day table must say: every task counted by (status, UTC day of its due date). */
async function realDueDays(db: Kysely<Database>): Promise<Counts> {
  const tasks = await db.selectFrom('tasks').select(['status', 'due_date']).execute();
  const counts: Counts = {};
  for (const task of tasks) {
    const pair = key(task.status, new Date(task.due_date).toISOString().slice(0, 10));
    counts[pair] = (counts[pair] ?? 0) + 1;
  }
  return counts;
}

/** Overdue, counted the plain way: every open task due before `now`. */
async function realOverdue(db: Kysely<Database>, now: number): Promise<number> {
  const tasks = await db.selectFrom('tasks').select(['status', 'due_date']).execute();
  return tasks.filter((t) => t.status !== 'Completed' && Date.parse(t.due_date) < now).length;
}

const STATUSES: TaskStatus[] = ['Pending', 'In Progress', 'Completed'];
const PRIORITIES: TaskPriority[] = ['Low', 'Medium', 'High'];
const sum = (counts: Counts, match: (status: string, priority: string) => boolean) =>
  Object.entries(counts)
    .filter(([pair]) => match(...(pair.split('/') as [string, string])))
    .reduce((total, [, count]) => total + count, 0);

describe(`task counts (${ENGINE})`, { timeout: 60_000 }, () => {
  let ctx: TestContext;
  let admin: Session;
  let alice: Session;
  let bob: Session;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
    alice = await signUp(ctx, 'member');
    bob = await signUp(ctx, 'member');
  });
  afterAll(() => ctx.close());

  /** The counter equals a real count, and the admin's page and dashboard show the real figures. */
  async function expectExact() {
    const real = await realCounts(ctx.db);
    expect(await counterTable(ctx.db)).toEqual(real);
    expect(await dueDaysTable(ctx.db)).toEqual(await realDueDays(ctx.db));
    const byStatus = (status: string) => sum(real, (s) => s === status);
    const byPriority = (priority: string) => sum(real, (_, p) => p === priority);
    const total = sum(real, () => true);

    const page = await ctx.api.get('/api/tasks').set(admin.auth).expect(200);
    expect(page.body.statusSummary).toEqual({
      all: total,
      pendingTasks: byStatus('Pending'),
      inProgressTasks: byStatus('In Progress'),
      completedTasks: byStatus('Completed'),
    });
    const dashboard = await ctx.api.get('/api/tasks/dashboard-data').set(admin.auth).expect(200);
    expect(dashboard.body.statistics).toMatchObject({
      totalTasks: total,
      pendingTasks: byStatus('Pending'),
      inProgressTasks: byStatus('In Progress'),
      completedTasks: byStatus('Completed'),
    });
    expect(dashboard.body.charts.taskDistribution).toEqual({
      All: total,
      Pending: byStatus('Pending'),
      InProgress: byStatus('In Progress'),
      Completed: byStatus('Completed'),
    });
    expect(dashboard.body.charts.taskPriorityLevels).toEqual(
      Object.fromEntries(PRIORITIES.map((p) => [p, byPriority(p)])),
    );
    // No test here writes a due date within a second of the request: the clock cannot tip it.
    expect(dashboard.body.statistics.overdueTasks).toBe(await realOverdue(ctx.db, Date.now()));
    return real;
  }

  const tasks: Task[] = [];
  const put = (path: string, body: object) =>
    ctx.api.put(`/api/tasks/${path}`).set(admin.auth).send(body).expect(200);

  it('counts created tasks, in every (status, priority)', async () => {
    for (const priority of PRIORITIES) {
      for (const [done, total] of [
        [0, 2],
        [1, 2],
        [2, 2],
      ] as const) {
        const todoChecklist = Array.from({ length: total }, (_, i) => ({
          text: `Step ${i}`,
          completed: i < done,
        }));
        tasks.push(await createTask(ctx, admin, [alice.id, bob.id], { priority, todoChecklist }));
      }
    }
    const real = await expectExact();
    for (const status of STATUSES)
      for (const priority of PRIORITIES) {
        expect(real[key(status, priority)]).toBe(1);
      }
  });

  it('follows priority changes and status changes from PUT /:id', async () => {
    const [low, medium] = [tasks[0]!, tasks[3]!];
    await put(low._id, { priority: 'High' });
    // A new checklist with every item done completes the task.
    await put(medium._id, { todoChecklist: [{ text: 'All of it', completed: true }] });
    expect((await realCounts(ctx.db))[key('Completed', 'Medium')]).toBe(2);
    // A title change touches neither column.
    await put(tasks[1]!._id, { title: 'Renamed' });
    await expectExact();
  });

  it('follows PUT /:id/status, checklist ticks and PUT /:id/todo', async () => {
    const task = tasks[6]!; // High, Pending, two open items
    await put(`${task._id}/status`, { status: 'Completed' });
    expect((await realCounts(ctx.db))[key('Completed', 'High')]).toBe(2);
    await expectExact();
    await put(`${task._id}/status`, { status: 'Pending' });
    await expectExact();
    // Ticking the items one by one (as its assignee, a member): In Progress, then Completed.
    for (const item of task.todoChecklist) {
      await ctx.api
        .patch(`/api/tasks/${task._id}/todo/${item._id}`)
        .set(alice.auth)
        .send({ completed: true })
        .expect(200);
      await expectExact();
    }
    expect((await realCounts(ctx.db))[key('In Progress', 'High')]).toBe(1);
    expect((await realCounts(ctx.db))[key('Completed', 'High')]).toBe(2);
    // A new checklist with nothing done sends it back to Pending.
    await put(`${task._id}/todo`, { todoChecklist: [{ text: 'Again', completed: false }] });
    expect((await realCounts(ctx.db))[key('Pending', 'High')]).toBe(2);
    await expectExact();
  });

  it('follows deletes; deleting a user keeps their tasks and the counts', async () => {
    await ctx.api.delete(`/api/tasks/${tasks[2]!._id}`).set(admin.auth).expect(200);
    await expectExact();

    // Tasks outlive their assignees and creator: the counts do not move.
    const before = await expectExact();
    const creator = await signUp(ctx, 'admin');
    await createTask(ctx, creator, [bob.id], { priority: 'Low' });
    await ctx.api.delete(`/api/users/${bob.id}`).set(admin.auth).expect(200);
    await ctx.api.delete(`/api/users/${creator.id}`).set(admin.auth).expect(200);
    const after = await expectExact();
    expect(sum(after, () => true)).toBe(sum(before, () => true) + 1);
  });

  it('stays exact under a burst of concurrent creates, status changes and deletes', async () => {
    const done = [{ text: 'Done', completed: true }];
    const open = [{ text: 'Open', completed: false }];
    // Even ones Pending, odd ones Completed, in every priority.
    const burst = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        createTask(ctx, admin, [alice.id], {
          priority: PRIORITIES[i % 3],
          todoChecklist: i % 2 === 0 ? open : done,
        }),
      ),
    );
    const before = sum(await expectExact(), () => true);
    // 30 writes at once: creates, moves in both directions between the same two counter rows
    // (the order of their locks matters on PostgreSQL), and deletes.
    const writes = burst.slice(0, 10).flatMap((task, i) => [
      createTask(ctx, admin, [alice.id], { priority: PRIORITIES[(i + 1) % 3] }),
      put(`${task._id}/status`, { status: i % 2 === 0 ? 'Completed' : 'Pending' }),
      ctx.api
        .delete(`/api/tasks/${burst[i + 10]!._id}`)
        .set(admin.auth)
        .expect(200),
    ]);
    await Promise.all(writes);
    // Ten created, ten deleted.
    expect(sum(await expectExact(), () => true)).toBe(before);
  });

  it('counts overdue tasks by day, and those due earlier today one by one', async () => {
    // A day of its own, far from the other tests' due dates, and a clock set in its middle.
    const now = '2031-06-15T12:00:00.000Z';
    const at = (iso: string, done = false) =>
      createTask(ctx, admin, [alice.id], {
        dueDate: iso,
        todoChecklist: [{ text: 'Step', completed: done }],
      });
    const days = [
      await at('2031-06-12T09:30:00.000Z'), // three days before: overdue
      await at('2031-06-14T23:59:59.999Z'), // the last instant of the day before: overdue
      await at('2031-06-14T10:00:00.000Z', true), // past but completed: not overdue
      await at('2031-06-15T00:00:00.000Z'), // the first instant of today: overdue
      await at('2031-06-15T11:59:59.999Z'), // just before now: overdue
      await at('2031-06-15T12:00:00.000Z'), // due now: not yet overdue
      await at('2031-06-15T18:00:00.000Z'), // later today
      await at('2031-06-16T08:00:00.000Z'), // tomorrow
    ];
    const overdueAt = async (clock: string) => {
      const counted = await countOverdueTasks(ctx.db, {}, clock);
      expect(counted).toBe(await realOverdue(ctx.db, Date.parse(clock)));
      return counted;
    };
    const before = await overdueAt(now);
    expect(before - (await realOverdue(ctx.db, Date.parse('2031-06-12T00:00:00.000Z')))).toBe(4);
    await expectExact();

    // Moving a due date across days and back, by the API and by hand-written SQL.
    await put(days[0]!._id, { dueDate: '2031-06-20T10:00:00.000Z' });
    expect(await overdueAt(now)).toBe(before - 1);
    await put(days[6]!._id, { dueDate: '2031-06-15T06:00:00.000Z' });
    expect(await overdueAt(now)).toBe(before);
    await ctx.db
      .updateTable('tasks')
      .set({ due_date: '2031-06-13T06:00:00.000Z' })
      .where('id', '=', days[7]!._id)
      .execute();
    expect(await overdueAt(now)).toBe(before + 1);
    // Completing one, and deleting one.
    await put(`${days[1]!._id}/status`, { status: 'Completed' });
    expect(await overdueAt(now)).toBe(before);
    await ctx.db.deleteFrom('tasks').where('id', '=', days[4]!._id).execute();
    expect(await overdueAt(now)).toBe(before - 1);
    // At other times of the same data: midnight, the end of the day, a later day.
    for (const clock of [
      '2031-06-15T00:00:00.000Z',
      '2031-06-15T23:59:59.999Z',
      '2031-07-01T00:00:00.000Z',
    ]) {
      await overdueAt(clock);
    }
    await expectExact();
  });

  it('a failed write leaves the counts as they were', async () => {
    const before = await counterTable(ctx.db);
    // An unknown assignee fails the creation after its checks: nothing is written.
    await ctx.api
      .post('/api/tasks')
      .set(admin.auth)
      .send({
        title: 'Never stored',
        description: 'x',
        priority: 'High',
        dueDate: new Date(Date.now() + 86_400_000).toISOString(),
        assignedTo: [randomUUID()],
        todoChecklist: [],
        attachments: [],
      })
      .expect(400);
    expect(await counterTable(ctx.db)).toEqual(before);
    await expectExact();
  });
});

describe(`task counts and due days migrations (${ENGINE})`, { timeout: 60_000 }, () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('count the tasks that existed before them, then keep counting', async () => {
    const { handle, drop, applied } = await openDatabaseBefore(
      tempDir(),
      '2026-11-23-003-task-counts',
    );
    cleanups.push(drop);

    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows written as an older version's schema had them
    const db = handle.db as Kysely<any>;
    const now = new Date().toISOString();
    const rows = Array.from({ length: 40 }, (_, i) => ({
      id: randomUUID(),
      title: `Old ${i}`,
      description: '',
      priority: PRIORITIES[i % 3],
      status: STATUSES[(i * 7) % 3 === 0 ? 0 : i % 2 === 0 ? 1 : 2],
      progress: 0,
      completed_todo_count: 0,
      // Spread over two weeks, some past, some to come.
      due_date: new Date(Date.now() + (i - 20) * 8 * 3_600_000).toISOString(),
      created_by: null,
      created_at: now,
      updated_at: now,
    }));
    await db.insertInto('tasks').values(rows).execute();

    expect(await migrateToLatest(handle)).toEqual(applied);
    const real = await realCounts(handle.db);
    expect(sum(real, () => true)).toBe(40);
    expect(await counterTable(handle.db)).toEqual(real);
    expect(await dueDaysTable(handle.db)).toEqual(await realDueDays(handle.db));
    expect(Object.keys(await dueDaysTable(handle.db)).length).toBeGreaterThan(5);

    // The triggers count from there on, including a pair the fill did not create.
    await db.deleteFrom('tasks').where('id', '=', rows[0]!.id).execute();
    await db
      .updateTable('tasks')
      .set({ status: 'Completed', priority: 'High' })
      .where('id', 'in', [rows[1]!.id, rows[2]!.id])
      .execute();
    await db.updateTable('tasks').set({ due_date: now }).where('id', '=', rows[4]!.id).execute();
    expect(await counterTable(handle.db)).toEqual(await realCounts(handle.db));
    expect(await dueDaysTable(handle.db)).toEqual(await realDueDays(handle.db));

    // A count that would go negative fails the write instead of drifting.
    await db.updateTable('task_counts').set({ count: 0 }).execute();
    await expect(db.deleteFrom('tasks').where('id', '=', rows[3]!.id).execute()).rejects.toThrow();
    expect(
      await db.selectFrom('tasks').select('id').where('id', '=', rows[3]!.id).executeTakeFirst(),
    ).toBeDefined();
  });
});
