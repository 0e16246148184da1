import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages, type CreateTaskInput, type Task } from '@task-manager/shared';
import { createTask, signUp, type Session } from '../helpers/factories.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

/** created_at has millisecond precision: a short pause gives each task its own timestamp. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

const DAY = 86_400_000;
const past = () => new Date(Date.now() - 2 * DAY).toISOString();
const future = () => new Date(Date.now() + 5 * DAY).toISOString();

type State = 'Pending' | 'In Progress' | 'Completed';
const checklists: Record<State, CreateTaskInput['todoChecklist']> = {
  Pending: [
    { text: 'Plan', completed: false },
    { text: 'Do', completed: false },
  ],
  'In Progress': [
    { text: 'Plan', completed: true },
    { text: 'Do', completed: false },
    { text: 'Check', completed: false },
  ],
  Completed: [
    { text: 'Plan', completed: true },
    { text: 'Do', completed: true },
  ],
};

const ids = (tasks: Array<{ _id: string }>) => tasks.map((task) => task._id);

describe(`dashboards (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;
  let alice: Session;
  let bob: Session;
  let idle: Session;
  /** In creation order: the oldest first. */
  const created: Task[] = [];

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
    alice = await signUp(ctx, 'member');
    bob = await signUp(ctx, 'member');
    idle = await signUp(ctx, 'member');
    const A = alice.id;
    const B = bob.id;
    // priority (undefined: left out, so the default Low), state, due, assignees
    const plan: Array<[CreateTaskInput['priority'], State, 'past' | 'future', string[]]> = [
      ['High', 'Pending', 'future', [A]], //                 1
      ['High', 'In Progress', 'future', [A]], //             2
      ['High', 'Completed', 'past', [A, B]], //              3  past due but done: not overdue
      ['Medium', 'Pending', 'past', [B]], //                 4  overdue
      ['Medium', 'In Progress', 'past', [A]], //             5  overdue
      ['Medium', 'Completed', 'future', [B]], //             6
      ['Low', 'Pending', 'future', [A]], //                  7
      ['Low', 'Pending', 'future', [B]], //                  8
      ['Low', 'Completed', 'future', [A]], //                9
      ['Low', 'In Progress', 'future', [B]], //             10
      [undefined, 'Pending', 'future', [A]], //             11
      ['Medium', 'Pending', 'future', [A, B, admin.id]], // 12
    ];
    for (const [priority, state, due, assignees] of plan) {
      // An undefined priority is left out of the JSON body, so the server's default applies.
      const task = await createTask(ctx, admin, assignees, {
        priority,
        todoChecklist: checklists[state],
        dueDate: due === 'past' ? past() : future(),
      });
      expect(task.priority).toBe(priority ?? 'Low');
      expect(task.status).toBe(state);
      created.push(task);
      await tick();
    }
  });
  afterAll(() => ctx.close());

  const newestFirst = (tasks: Task[]) => ids([...tasks].reverse());
  const pick = (...numbers: number[]) => numbers.map((n) => created[n - 1] as Task);

  describe('GET /api/tasks/dashboard-data', () => {
    it('counts every task for an admin', async () => {
      const res = await ctx.api.get('/api/tasks/dashboard-data').set(admin.auth).expect(200);
      expect(res.body.statistics).toEqual({
        totalTasks: 12,
        pendingTasks: 6,
        inProgressTasks: 3,
        completedTasks: 3,
        overdueTasks: 2,
      });
      expect(res.body.charts).toEqual({
        taskDistribution: { All: 12, Pending: 6, InProgress: 3, Completed: 3 },
        taskPriorityLevels: { Low: 5, Medium: 4, High: 3 },
      });
      expect(Object.keys(res.body).sort()).toEqual(['charts', 'recentTasks', 'statistics']);
    });

    it('lists the 10 newest tasks, newest first, as full tasks', async () => {
      const res = await ctx.api.get('/api/tasks/dashboard-data').set(admin.auth).expect(200);
      expect(res.body.recentTasks).toHaveLength(10);
      expect(ids(res.body.recentTasks)).toEqual(newestFirst(created).slice(0, 10));
      const [newest] = res.body.recentTasks;
      const stored = await ctx.api.get(`/api/tasks/${newest._id}`).set(admin.auth).expect(200);
      expect(newest).toEqual(stored.body);
      expect(JSON.stringify(res.body)).not.toMatch(/password/i);
    });

    it('accepts a trailing slash', async () => {
      const plain = await ctx.api.get('/api/tasks/dashboard-data').set(admin.auth).expect(200);
      const slashed = await ctx.api.get('/api/tasks/dashboard-data/').set(admin.auth).expect(200);
      expect(slashed.body).toEqual(plain.body);
    });

    it('refuses members with 403 and anonymous callers with 401', async () => {
      const forbidden = await ctx.api.get('/api/tasks/dashboard-data').set(alice.auth).expect(403);
      expect(forbidden.body).toEqual({ message: apiMessages.adminOnly, code: expect.any(String) });
      const anonymous = await ctx.api.get('/api/tasks/dashboard-data').expect(401);
      expect(anonymous.body).toEqual({
        message: apiMessages.notAuthorized,
        code: expect.any(String),
      });
    });
  });

  describe('GET /api/tasks/user-dashboard-data', () => {
    it("counts only the member's own tasks", async () => {
      const res = await ctx.api.get('/api/tasks/user-dashboard-data').set(alice.auth).expect(200);
      // Alice: tasks 1, 2, 3, 5, 7, 9, 11, 12.
      expect(res.body.statistics).toEqual({
        totalTasks: 8,
        pendingTasks: 4,
        inProgressTasks: 2,
        completedTasks: 2,
        overdueTasks: 1,
      });
      expect(res.body.charts).toEqual({
        taskDistribution: { All: 8, Pending: 4, InProgress: 2, Completed: 2 },
        taskPriorityLevels: { Low: 3, Medium: 2, High: 3 },
      });
      expect(ids(res.body.recentTasks)).toEqual(newestFirst(pick(1, 2, 3, 5, 7, 9, 11, 12)));
    });

    it('gives another member their own figures', async () => {
      const res = await ctx.api.get('/api/tasks/user-dashboard-data').set(bob.auth).expect(200);
      // Bob: tasks 3, 4, 6, 8, 10, 12.
      expect(res.body.statistics).toEqual({
        totalTasks: 6,
        pendingTasks: 3,
        inProgressTasks: 1,
        completedTasks: 2,
        overdueTasks: 1,
      });
      expect(res.body.charts).toEqual({
        taskDistribution: { All: 6, Pending: 3, InProgress: 1, Completed: 2 },
        taskPriorityLevels: { Low: 2, Medium: 3, High: 1 },
      });
      expect(ids(res.body.recentTasks)).toEqual(newestFirst(pick(3, 4, 6, 8, 10, 12)));
    });

    it('gives an admin the tasks assigned to them, not every task', async () => {
      const res = await ctx.api.get('/api/tasks/user-dashboard-data/').set(admin.auth).expect(200);
      expect(res.body.statistics).toEqual({
        totalTasks: 1,
        pendingTasks: 1,
        inProgressTasks: 0,
        completedTasks: 0,
        overdueTasks: 0,
      });
      expect(res.body.charts.taskPriorityLevels).toEqual({ Low: 0, Medium: 1, High: 0 });
      expect(ids(res.body.recentTasks)).toEqual(ids(pick(12)));
    });

    it('gives zeros and no tasks to a member with none', async () => {
      const res = await ctx.api.get('/api/tasks/user-dashboard-data').set(idle.auth).expect(200);
      expect(res.body).toEqual({
        statistics: {
          totalTasks: 0,
          pendingTasks: 0,
          inProgressTasks: 0,
          completedTasks: 0,
          overdueTasks: 0,
        },
        charts: {
          taskDistribution: { All: 0, Pending: 0, InProgress: 0, Completed: 0 },
          taskPriorityLevels: { Low: 0, Medium: 0, High: 0 },
        },
        recentTasks: [],
      });
    });

    it('needs a token', async () => {
      const res = await ctx.api.get('/api/tasks/user-dashboard-data').expect(401);
      expect(res.body).toEqual({ message: apiMessages.notAuthorized, code: expect.any(String) });
    });
  });

  // Runs last: it changes the data the tests above count.
  describe('after changes', () => {
    it('stops counting an overdue task once it is completed, and follows reassignment', async () => {
      const [overdue] = pick(4);
      await ctx.api
        .put(`/api/tasks/${overdue?._id}/status`)
        .set(bob.auth)
        .send({ status: 'Completed' })
        .expect(200);
      const all = await ctx.api.get('/api/tasks/dashboard-data').set(admin.auth).expect(200);
      expect(all.body.statistics).toEqual({
        totalTasks: 12,
        pendingTasks: 5,
        inProgressTasks: 3,
        completedTasks: 4,
        overdueTasks: 1,
      });
      const bobs = await ctx.api.get('/api/tasks/user-dashboard-data').set(bob.auth).expect(200);
      expect(bobs.body.statistics.overdueTasks).toBe(0);
      expect(bobs.body.statistics.completedTasks).toBe(3);

      // Task 5 (overdue, In Progress, Medium) moves from Alice to the idle member.
      const [moved] = pick(5);
      await ctx.api
        .put(`/api/tasks/${moved?._id}`)
        .set(admin.auth)
        .send({ assignedTo: [idle.id] })
        .expect(200);
      const idles = await ctx.api.get('/api/tasks/user-dashboard-data').set(idle.auth).expect(200);
      expect(idles.body.statistics).toEqual({
        totalTasks: 1,
        pendingTasks: 0,
        inProgressTasks: 1,
        completedTasks: 0,
        overdueTasks: 1,
      });
      expect(idles.body.charts.taskPriorityLevels).toEqual({ Low: 0, Medium: 1, High: 0 });
      const alices = await ctx.api
        .get('/api/tasks/user-dashboard-data')
        .set(alice.auth)
        .expect(200);
      expect(alices.body.statistics).toEqual({
        totalTasks: 7,
        pendingTasks: 4,
        inProgressTasks: 1,
        completedTasks: 2,
        overdueTasks: 0,
      });
    });

    it('keeps only the 10 newest in recentTasks when a new task arrives', async () => {
      const fresh = await createTask(ctx, admin, [alice.id]);
      const res = await ctx.api.get('/api/tasks/dashboard-data').set(admin.auth).expect(200);
      expect(ids(res.body.recentTasks)).toEqual([fresh._id, ...newestFirst(created).slice(0, 9)]);
      expect(res.body.statistics.totalTasks).toBe(13);
    });
  });
});
