import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { runDueReminders } from '../../src/scheduler/due-reminders.js';
import { takeLease } from '../../src/scheduler/lease.js';
import { runScheduledJobs } from '../../src/scheduler/scheduler.js';
import { createTask, signUp, type Session } from '../helpers/factories.js';
import {
  adminQuery,
  ENGINE,
  POSTGRES_URL,
  testConfig,
  type TestContext,
} from '../helpers/test-app.js';

const DAY = 86_400_000;

/**
 * Two handles on one database, as two API processes have: a SQLite file opened twice, or two
 * pools on one PostgreSQL schema. The app (for creating people and tasks) runs on the first.
 */
async function twoProcesses(): Promise<{
  ctx: TestContext;
  second: DatabaseHandle;
  close(): Promise<void>;
}> {
  let first: DatabaseHandle;
  let second: DatabaseHandle;
  let cleanup: () => Promise<void>;
  if (ENGINE === 'postgres') {
    const schema = `test_${randomUUID().replaceAll('-', '')}`;
    await adminQuery(`create schema ${schema}`);
    first = openDatabase({ engine: 'postgres', url: POSTGRES_URL, schema, poolSize: 4 });
    second = openDatabase({ engine: 'postgres', url: POSTGRES_URL, schema, poolSize: 4 });
    cleanup = () => adminQuery(`drop schema ${schema} cascade`);
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reminders-'));
    const file = path.join(dir, 'taskmanager.db');
    first = openDatabase({ engine: 'sqlite', file });
    await migrateToLatest(first);
    second = openDatabase({ engine: 'sqlite', file });
    cleanup = async () => fs.rmSync(dir, { recursive: true, force: true });
  }
  if (ENGINE === 'postgres') await migrateToLatest(first);
  const app = createApp({ db: first.db, config: testConfig, logger: pino({ level: 'silent' }) });
  const ctx: TestContext = {
    app,
    db: first.db,
    engine: ENGINE,
    api: request(app),
    close: () => first.close(),
  };
  return {
    ctx,
    second,
    close: async () => {
      await first.close();
      await second.close();
      await cleanup();
    },
  };
}

describe(`due reminders (${ENGINE})`, () => {
  let world: Awaited<ReturnType<typeof twoProcesses>>;
  let ctx: TestContext;
  let admin: Session;

  beforeAll(async () => {
    world = await twoProcesses();
    ctx = world.ctx;
    admin = await signUp(ctx, 'admin');
  });
  afterAll(() => world.close());

  const remindersOf = (userId: string) =>
    ctx.db
      .selectFrom('notifications')
      .select(['type', 'task_id', 'data'])
      .where('user_id', '=', userId)
      .where('type', 'in', ['due_soon', 'overdue'])
      .orderBy('type')
      .orderBy('task_id')
      .execute();

  it('tomorrow’s open tasks get due_soon and past ones overdue, once, even from two processes at once', async () => {
    const now = new Date();
    const tomorrowNoon = new Date(
      Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, 12),
    );
    const member = await signUp(ctx, 'member');
    const other = await signUp(ctx, 'member');
    const soon = await createTask(ctx, admin, [member.id, other.id], {
      dueDate: tomorrowNoon.toISOString(),
    });
    const late = await createTask(ctx, admin, [member.id], {
      dueDate: new Date(now.getTime() - 2 * DAY).toISOString(),
    });
    // Not reminded: a completed task, and one due later.
    await createTask(ctx, admin, [member.id], {
      dueDate: new Date(now.getTime() - DAY).toISOString(),
      todoChecklist: [{ text: 'Done', completed: true }],
    });
    await createTask(ctx, admin, [member.id], {
      dueDate: new Date(now.getTime() + 5 * DAY).toISOString(),
    });

    // Twice at once, each through its own "process", then once more after a "restart". Two
    // SQLite handles in one thread would deadlock on the file lock (better-sqlite3 waits
    // synchronously), so on SQLite the two runs race on one handle's connection instead.
    const parallel = ENGINE === 'postgres' ? world.second.db : ctx.db;
    const written = await Promise.all([
      runDueReminders(ctx.db, now),
      runDueReminders(parallel, now),
    ]);
    expect(await runDueReminders(world.second.db, now)).toBe(0);
    expect(written[0] + written[1]).toBe(3);

    const mine = await remindersOf(member.id);
    expect(mine.map((r) => [r.type, r.task_id])).toEqual(
      [
        ['due_soon', soon._id],
        ['overdue', late._id],
      ].sort(),
    );
    expect(JSON.parse(mine.find((r) => r.type === 'overdue')!.data)).toMatchObject({
      taskTitle: late.title,
      dueDate: late.dueDate,
    });
    expect((await remindersOf(other.id)).map((r) => r.type)).toEqual(['due_soon']);

    // Seen through the API like any other notification, with no actor.
    const list = await ctx.api.get('/api/notifications').set(member.auth).expect(200);
    const reminder = list.body.items.find((n: { type: string }) => n.type === 'overdue');
    expect(reminder).toMatchObject({ actor: null, task: { _id: late._id } });
  });

  it('a new due date makes a new reminder due', async () => {
    const now = new Date();
    const member = await signUp(ctx, 'member');
    const task = await createTask(ctx, admin, [member.id], {
      dueDate: new Date(now.getTime() - DAY).toISOString(),
    });
    await runDueReminders(ctx.db, now);
    await ctx.api
      .put(`/api/tasks/${task._id}`)
      .set(admin.auth)
      .send({ dueDate: new Date(now.getTime() - 3 * DAY).toISOString() })
      .expect(200);
    await runDueReminders(ctx.db, now);
    await runDueReminders(ctx.db, now);
    expect((await remindersOf(member.id)).map((r) => r.type)).toEqual(['overdue', 'overdue']);
  });

  it('reads only what came due or was written since its last run, and reminds each in time', async () => {
    // A quiet start: every overdue task so far reminded, the job's mark at `t0`.
    const t0 = new Date();
    await runDueReminders(ctx.db, t0);
    const member = await signUp(ctx, 'member');
    // Overdue before t0 but never reminded (written straight into the database, as an import
    // would, with an updated_at before the mark): later runs do not read it again.
    const old = await createTask(ctx, admin, [member.id]);
    await ctx.db
      .updateTable('tasks')
      .set({
        due_date: new Date(t0.getTime() - 10 * DAY).toISOString(),
        updated_at: new Date(t0.getTime() - DAY).toISOString(),
      })
      .where('id', '=', old._id)
      .execute();
    // Comes due an hour after t0: reminded by the first run after that.
    const comingDue = await createTask(ctx, admin, [member.id], {
      dueDate: new Date(t0.getTime() + 3_600_000).toISOString(),
    });
    await ctx.db
      .updateTable('tasks')
      .set({ updated_at: new Date(t0.getTime() - DAY).toISOString() })
      .where('id', '=', comingDue._id)
      .execute();
    // Created overdue after the mark: its own write puts it in the next run.
    const createdLate = await createTask(ctx, admin, [member.id], {
      dueDate: new Date(t0.getTime() - 2 * DAY).toISOString(),
    });
    const overdueOf = async () =>
      (await remindersOf(member.id)).filter((r) => r.type === 'overdue').map((r) => r.task_id);

    await runDueReminders(ctx.db, new Date(t0.getTime() + 60_000));
    expect(await overdueOf()).toEqual([createdLate._id]);
    await runDueReminders(ctx.db, new Date(t0.getTime() + 2 * 3_600_000));
    expect((await overdueOf()).sort()).toEqual([createdLate._id, comingDue._id].sort());
    expect(await overdueOf()).not.toContain(old._id);

    // A run whose clock is behind the mark (another process's, a restored backup) reads every
    // overdue task again: nothing is missed, nothing written twice.
    expect(await runDueReminders(ctx.db, new Date(t0.getTime() + 3_600_000))).toBe(1);
    expect((await overdueOf()).sort()).toEqual([createdLate._id, comingDue._id, old._id].sort());
  });

  it('exactly one of two processes racing for a job’s lease runs it', async () => {
    const now = new Date(Date.now() + 365 * DAY);
    for (let round = 0; round < 5; round += 1) {
      const at = new Date(now.getTime() + round * 60_000);
      const runs = await Promise.all([
        runScheduledJobs(ctx.db, 'process-a', at),
        runScheduledJobs(world.second.db, 'process-b', at),
      ]);
      const ran = runs.filter((run) => run.dueReminders !== null);
      expect(ran, `round ${round}`).toHaveLength(1);
    }
    // Held: nobody else takes it before it expires; afterwards anyone may.
    const until = new Date(now.getTime() + 10 * 60_000);
    expect(await takeLease(ctx.db, 'test-job', 'a', now, until)).toBe(true);
    expect(await takeLease(world.second.db, 'test-job', 'b', now, until)).toBe(false);
    expect(await takeLease(world.second.db, 'test-job', 'b', until, new Date(+until + 1))).toBe(
      true,
    );
  });

  it("reads tomorrow's tasks whole at a day's first run, then only those written since", async () => {
    // Noon of a day of its own, far ahead: the job's mark, after a run that reads everything.
    const today = new Date(Date.now() + 400 * DAY);
    const noon = new Date(
      Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate(), 12),
    );
    await runDueReminders(ctx.db, noon);
    const member = await signUp(ctx, 'member');
    const dueIn = (days: number) => new Date(noon.getTime() + days * DAY).toISOString();
    // Written before the mark (their updated_at is now, long before noon): the noon run has
    // read them, as far as later runs can tell.
    const quiet = await createTask(ctx, admin, [member.id], { dueDate: dueIn(1) });
    const dayAfter = await createTask(ctx, admin, [member.id], { dueDate: dueIn(2) });
    // Written in the afternoon: the next run reads it.
    const edited = await createTask(ctx, admin, [member.id], { dueDate: dueIn(1) });
    await ctx.db
      .updateTable('tasks')
      .set({ updated_at: new Date(noon.getTime() + 30 * 60_000).toISOString() })
      .where('id', '=', edited._id)
      .execute();
    const dueSoonOf = async () =>
      (await remindersOf(member.id))
        .filter((r) => r.type === 'due_soon')
        .map((r) => r.task_id)
        .sort();

    await runDueReminders(ctx.db, new Date(noon.getTime() + 3_600_000));
    expect(await dueSoonOf()).toEqual([edited._id]);
    expect(await dueSoonOf()).not.toContain(quiet._id);
    // The next day's first run reads every task due the day after, written whenever.
    await runDueReminders(ctx.db, new Date(noon.getTime() + DAY));
    expect(await dueSoonOf()).toEqual([edited._id, dayAfter._id].sort());
  });
});
