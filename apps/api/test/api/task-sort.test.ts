import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TASK_SORTS,
  validationMessages,
  type Task,
  type TaskListResponse,
  type TaskSort,
} from '@task-manager/shared';
import { createTask, signUp, type Session } from '../helpers/factories.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

const RANK = { High: 3, Medium: 2, Low: 1 } as const;
const DEFAULT_ORDER: Record<TaskSort, 'asc' | 'desc'> = {
  createdAt: 'desc',
  updatedAt: 'desc',
  dueDate: 'asc',
  priority: 'desc',
  title: 'asc',
};

/** The key each sort orders by, then the id (what the server promises). */
function keyOf(task: Task, sort: TaskSort): Array<string | number> {
  switch (sort) {
    case 'createdAt':
      return [task.createdAt, task._id];
    case 'updatedAt':
      return [task.updatedAt, task._id];
    case 'dueDate':
      return [task.dueDate, task._id];
    case 'title':
      return [task.title.toLowerCase(), task._id];
    case 'priority':
      return [RANK[task.priority], task.createdAt, task._id];
  }
}

function compare(a: Array<string | number>, b: Array<string | number>): number {
  for (let i = 0; i < a.length; i++) {
    if (a[i]! < b[i]!) return -1;
    if (a[i]! > b[i]!) return 1;
  }
  return 0;
}

describe(`task list sorts and paging (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;
  let member: Session;
  let tasks: Task[];

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
    member = await signUp(ctx, 'member');
    const other = await signUp(ctx, 'member');
    const priorities = ['Low', 'Medium', 'High'] as const;
    // Ties on purpose: shared titles (in other cases), due dates and priorities.
    const titles = ['alpha', 'Bravo', 'charlie', 'ALPHA', 'delta', 'bravo', 'Echo'];
    for (let i = 0; i < 23; i++) {
      const due = new Date(Date.UTC(2031, 0, 1 + (i % 5))).toISOString();
      await createTask(ctx, admin, i % 3 === 0 ? [other.id] : [member.id], {
        title: titles[i % titles.length]!,
        priority: priorities[i % 3]!,
        dueDate: due,
      });
    }
    // Some updated later than they were created, in another order.
    const all = (await ctx.api.get('/api/tasks').query({ limit: '500' }).set(admin.auth)).body
      .tasks as Task[];
    for (const task of all.filter((_, i) => i % 4 === 1)) {
      await ctx.api.put(`/api/tasks/${task._id}`).set(admin.auth).send({ description: 'Edited' });
    }
    tasks = (await ctx.api.get('/api/tasks').query({ limit: '500' }).set(admin.auth)).body.tasks;
  });
  afterAll(() => ctx.close());

  /** Every page of a list, following nextCursor. */
  async function walk(session: Session, query: Record<string, string>) {
    const seen: Task[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 50; pages++) {
      const res = await ctx.api
        .get('/api/tasks')
        .query({ limit: '4', ...query, ...(cursor && { cursor }) })
        .set(session.auth)
        .expect(200);
      const body = res.body as TaskListResponse;
      expect(body.tasks.length).toBeLessThanOrEqual(4);
      seen.push(...body.tasks);
      if (!body.nextCursor) return seen;
      cursor = body.nextCursor;
    }
    throw new Error('more pages than tasks');
  }

  const expected = (list: Task[], sort: TaskSort, order: 'asc' | 'desc') =>
    [...list]
      .sort((a, b) => compare(keyOf(a, sort), keyOf(b, sort)) * (order === 'asc' ? 1 : -1))
      .map((task) => task._id);

  const cases = TASK_SORTS.flatMap((sort) =>
    (['asc', 'desc', undefined] as const).map((order) => [sort, order] as const),
  );

  it.each(cases)(
    'sort=%s order=%s: every task once, in order, through pages of 4',
    async (sort, order) => {
      const query: Record<string, string> = { sort, ...(order && { order }) };
      const walked = await walk(admin, query);
      expect(walked.map((task) => task._id)).toEqual(
        expected(tasks, sort, order ?? DEFAULT_ORDER[sort]),
      );
    },
  );

  it.each(TASK_SORTS)("sort=%s pages a member's own tasks", async (sort) => {
    const mine = tasks.filter((task) => task.assignedTo.some((a) => a._id === member.id));
    const walked = await walk(member, { sort });
    expect(walked.map((task) => task._id)).toEqual(expected(mine, sort, DEFAULT_ORDER[sort]));
  });

  it('sorts with a filter and the status tab too', async () => {
    const walked = await walk(admin, { sort: 'dueDate', priority: 'High', order: 'desc' });
    const high = tasks.filter((task) => task.priority === 'High');
    expect(walked.map((task) => task._id)).toEqual(expected(high, 'dueDate', 'desc'));
  });

  it('ranks priority High, Medium, Low, not alphabetically', async () => {
    const walked = await walk(admin, { sort: 'priority' });
    const ranks = walked.map((task) => RANK[task.priority]);
    expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
    expect(walked[0]!.priority).toBe('High');
    expect(walked.at(-1)!.priority).toBe('Low');
  });

  it('refuses a cursor made for another sort or order', async () => {
    const first = await ctx.api
      .get('/api/tasks')
      .query({ sort: 'title', limit: '2' })
      .set(admin.auth)
      .expect(200);
    const cursor = first.body.nextCursor as string;
    for (const query of [
      { sort: 'dueDate', cursor },
      { sort: 'title', order: 'desc', cursor },
      { cursor },
    ]) {
      const res = await ctx.api.get('/api/tasks').query(query).set(admin.auth).expect(400);
      expect(res.body.message).toBe(validationMessages.invalidCursor);
    }
  });
});
