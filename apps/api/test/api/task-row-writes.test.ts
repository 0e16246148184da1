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
});
