import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '@task-manager/shared';
import { TaskService } from '../../src/tasks/service.js';
import { createTask, signUp, type Session } from '../helpers/factories.js';
import { captureQueries } from '../helpers/query-capture.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

/**
 * A write sets only the task's columns whose value changes (tasks/repository.ts, updateTaskRow):
 * SQLite rewrites the entry of every index holding a column an UPDATE sets, changed or not, and
 * runs the triggers `after update of` it. What is stored and answered stays the same.
 */
describe(`task row writes (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;
  let member: Session;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
    member = await signUp(ctx, 'member');
  });
  afterAll(() => ctx.close());

  /** The columns each UPDATE of `tasks` set, in the order run. */
  const taskUpdates = (sqls: string[]) =>
    sqls
      .filter((text) => /^update "tasks"/.test(text))
      .map((text) => {
        const set = /\bset (.*) where /.exec(text)?.[1] ?? '';
        return [...set.matchAll(/"(\w+)" =/g)].map(([, column]) => column).sort();
      });
  const fetchTask = async (id: string) =>
    (await ctx.api.get(`/api/tasks/${id}`).set(admin.auth).expect(200)).body as Task;

  it('a tick that leaves the status sets progress, count and time; one that moves it, the status too', async () => {
    const task = await createTask(ctx, admin, [member.id], {
      todoChecklist: [{ text: 'One' }, { text: 'Two' }, { text: 'Three' }],
    });
    const capture = captureQueries(ctx.db);
    const tasks = new TaskService(capture.db);
    const who = { id: member.id, role: 'member' as const, tokenVersion: 0 };
    const [one, two, three] = task.todoChecklist.map((item) => item._id);
    const tick = async (itemId: string, completed: boolean) => {
      await tasks.setChecklistItem(who, task._id, itemId!, completed);
      return taskUpdates(capture.take().map((query) => query.sql));
    };

    const withStatus = [['completed_todo_count', 'progress', 'status', 'updated_at']];
    const withoutStatus = [['completed_todo_count', 'progress', 'updated_at']];
    expect(await tick(one!, true)).toEqual(withStatus); // Pending → In Progress
    expect(await tick(two!, true)).toEqual(withoutStatus); // still In Progress
    expect(await fetchTask(task._id)).toMatchObject({
      status: 'In Progress',
      progress: 67,
      completedTodoCount: 2,
    });
    expect(await tick(three!, true)).toEqual(withStatus); // → Completed
    expect(await tick(three!, false)).toEqual(withStatus); // → In Progress
    expect(await tick(two!, false)).toEqual(withoutStatus);
    expect(await fetchTask(task._id)).toMatchObject({
      status: 'In Progress',
      progress: 33,
      completedTodoCount: 1,
    });
    // The counts the triggers keep followed every move.
    const dashboard = await ctx.api.get('/api/tasks/dashboard-data').set(admin.auth).expect(200);
    expect(dashboard.body.statistics).toMatchObject({ inProgressTasks: 1, completedTasks: 0 });
  });

  it('an edit that sends every field sets only what changed', async () => {
    const task = await createTask(ctx, admin, [member.id], {
      title: 'Plan the offsite',
      description: 'Venue and agenda',
      priority: 'Low',
    });
    const capture = captureQueries(ctx.db);
    const tasks = new TaskService(capture.db);
    const updated = await tasks.update(
      task._id,
      {
        title: 'Plan the offsite',
        description: 'Venue, agenda and travel',
        priority: 'Low',
        dueDate: task.dueDate,
      },
      { actorId: admin.id },
    );
    expect(taskUpdates(capture.take().map((query) => query.sql))).toEqual([
      ['description', 'updated_at'],
    ]);
    expect(updated).toMatchObject({
      title: 'Plan the offsite',
      description: 'Venue, agenda and travel',
      priority: 'Low',
      dueDate: task.dueDate,
    });
    expect(await fetchTask(task._id)).toEqual(updated);
  });

  it("writes each assignment once, with its task's creation time", async () => {
    // SQLite's trigger corrects an assignment written without its task's created_at by updating
    // the row just inserted (migration 2026-11-24-003): the API gives it, so nothing is updated.
    const updates = async () => {
      if (ENGINE !== 'sqlite') return 0;
      const { rows } = await sql<{
        n: number;
      }>`select count(*) as n from temp.assignee_updates`.execute(ctx.db);
      return Number(rows[0]!.n);
    };
    if (ENGINE === 'sqlite') {
      await sql`create temp table assignee_updates (at integer)`.execute(ctx.db);
      await sql`create temp trigger count_assignee_updates after update on main.task_assignees
        begin insert into assignee_updates values (1); end`.execute(ctx.db);
    }
    const other = await signUp(ctx, 'member');
    const task = await createTask(ctx, admin, [member.id, other.id]);
    await ctx.api
      .put(`/api/tasks/${task._id}`)
      .set(admin.auth)
      .send({ assignedTo: [other.id, admin.id] })
      .expect(200);
    const rows = await ctx.db
      .selectFrom('task_assignees')
      .select(['user_id', 'task_created_at'])
      .where('task_id', '=', task._id)
      .orderBy('position')
      .execute();
    expect(rows).toEqual([
      { user_id: other.id, task_created_at: task.createdAt },
      { user_id: admin.id, task_created_at: task.createdAt },
    ]);
    expect(await updates()).toBe(0);
  });
});
