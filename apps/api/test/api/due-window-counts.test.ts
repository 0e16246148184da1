import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskListResponse, TaskStatus } from '@task-manager/shared';
import { createTask, signUp, type Session } from '../helpers/factories.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

const HOUR = 3_600_000;
const STATUSES: TaskStatus[] = ['Pending', 'In Progress', 'Completed'];
const SUMMARY_KEY = {
  Pending: 'pendingTasks',
  'In Progress': 'inProgressTasks',
  Completed: 'completedTasks',
} as const;

/**
 * An admin's counts of a due window add up whole days kept by triggers and count the part-days
 * at its ends one by one (countDueWindow in repository.ts): checked here against the tasks the
 * same request lists, for windows that start and end at every kind of instant.
 */
describe(`the counts of a due window (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;
  const midnight = (() => {
    const now = new Date();
    return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  })();
  const at = (hours: number) => new Date(midnight + hours * HOUR).toISOString();

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
    const member = await signUp(ctx, 'member');
    // Due every 7 hours from 12 days ago to 14 days ahead, some exactly at midnight UTC; a
    // status each, in turn, written in the database (the day counts follow any writer).
    for (let hours = -12 * 24, n = 0; hours <= 14 * 24; hours += 7, n++) {
      const task = await createTask(ctx, admin, [member.id], {
        title: `Due ${n}`,
        dueDate: at(hours),
      });
      await ctx.db
        .updateTable('tasks')
        .set({ status: STATUSES[n % 3]! })
        .where('id', '=', task._id)
        .execute();
    }
    for (const hours of [-48, 0, 24, 72]) {
      await createTask(ctx, admin, [member.id], { title: 'Midnight', dueDate: at(hours) });
    }
  });
  afterAll(() => ctx.close());

  const list = async (query: Record<string, string>) =>
    (
      await ctx.api
        .get('/api/tasks')
        .query({ limit: '500', ...query })
        .set(admin.auth)
        .expect(200)
    ).body as TaskListResponse;

  const windows: Array<Record<string, string>> = [];
  for (const due of ['overdue', 'today', 'week', 'later']) {
    for (const tz of ['UTC', 'Europe/Paris', 'Pacific/Kiritimati', 'America/Los_Angeles']) {
      windows.push({ due, tz });
    }
  }
  windows.push(
    { dueFrom: at(-3 * 24 + 7.5), dueBefore: at(4 * 24 + 13) },
    { dueFrom: at(-2 * 24), dueBefore: at(2 * 24) },
    { dueFrom: at(5), dueBefore: at(11) },
    { dueFrom: at(-100 * 24) },
    { dueBefore: at(-5 * 24 + 1) },
    { due: 'week', dueFrom: at(2 * 24 + 3) },
    { due: 'overdue', dueFrom: at(-6 * 24 - 2) },
  );

  it.each(windows)('%j: counted as listed, by status', async (query) => {
    const all = await list(query);
    const listed = {
      all: all.tasks.length,
      pendingTasks: 0,
      inProgressTasks: 0,
      completedTasks: 0,
    };
    for (const task of all.tasks) listed[SUMMARY_KEY[task.status]] += 1;
    expect(all.statusSummary).toEqual(listed);
    // The status tabs show the same counts, and list what they count.
    const tab = await list({ ...query, status: 'In Progress' });
    expect(tab.statusSummary).toEqual(listed);
    expect(tab.tasks).toHaveLength(listed.inProgressTasks);
  });

  it('follows a due date moved and a task completed, at once', async () => {
    const before = (await list({ due: 'week' })).statusSummary;
    const moved = (await list({ due: 'later' })).tasks.find((task) => task.status === 'Pending')!;
    await ctx.api
      .put(`/api/tasks/${moved._id}`)
      .set(admin.auth)
      .send({ dueDate: at(2 * 24 + 5) })
      .expect(200);
    const after = (await list({ due: 'week' })).statusSummary;
    expect(after.all).toBe(before.all + 1);
    expect(after.pendingTasks).toBe(before.pendingTasks + 1);
  });
});
