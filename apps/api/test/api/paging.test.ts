import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NEXT_CURSOR_HEADER,
  validationMessages,
  type Task,
  type TaskListResponse,
  type TaskStatus,
  type UserWithTaskCounts,
} from '@task-manager/shared';
import { seedMembers, seedTasks } from '../helpers/bulk-seed.js';
import { createTask, signUp, type Session } from '../helpers/factories.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

/** 620 tasks: more than the largest page, in groups of four that share a creation time. */
const TASK_COUNT = 620;
const ids = (tasks: Array<{ _id: string }>) => tasks.map((task) => task._id);
const cursorOf = (key: unknown) => Buffer.from(JSON.stringify(key)).toString('base64url');

describe(`paging of the task and user lists (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;
  /** Assigned to every task whose number is even. */
  let even: Session;
  /** Assigned to every third task. */
  let third: Session;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
    even = await signUp(ctx, 'member', { name: 'Evelyn Even' });
    third = await signUp(ctx, 'member', { name: 'Theo Third' });
    await seedTasks(ctx.db, {
      count: TASK_COUNT,
      createdBy: admin.id,
      sameTimeGroups: 4,
      assign: (i) => [...(i % 2 === 0 ? [even.id] : []), ...(i % 3 === 0 ? [third.id] : [])],
    });
  });
  afterAll(() => ctx.close());

  /** Task ids as the list must order them, read from the database itself. */
  async function expectedOrder(options: { assigneeId?: string; status?: TaskStatus } = {}) {
    let query = ctx.db.selectFrom('tasks').select('id');
    if (options.assigneeId) {
      const assigneeId = options.assigneeId;
      query = query.where('id', 'in', (eb) =>
        eb.selectFrom('task_assignees').select('task_id').where('user_id', '=', assigneeId),
      );
    }
    if (options.status) query = query.where('status', '=', options.status);
    const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
    return rows.map((row) => row.id);
  }

  async function statusSummaryOf(assigneeId?: string) {
    const all = await expectedOrder({ assigneeId });
    const count = async (status: TaskStatus) =>
      (await expectedOrder({ assigneeId, status })).length;
    return {
      all: all.length,
      pendingTasks: await count('Pending'),
      inProgressTasks: await count('In Progress'),
      completedTasks: await count('Completed'),
    };
  }

  async function getTasks(session: Session, query: Record<string, string | number>) {
    const res = await ctx.api.get('/api/tasks').query(query).set(session.auth).expect(200);
    return res.body as TaskListResponse;
  }

  /** Follows nextCursor from the first page to the last; every page is checked on the way. */
  async function walkTasks(
    session: Session,
    query: Record<string, string | number> & { limit: number },
    between: (page: number) => Promise<void> = async () => {},
  ) {
    const pages: TaskListResponse[] = [];
    let cursor: string | null | undefined;
    do {
      const page = await getTasks(session, { ...query, ...(cursor ? { cursor } : {}) });
      pages.push(page);
      cursor = page.nextCursor;
      if (cursor !== null) {
        expect(typeof cursor).toBe('string');
        expect(page.tasks).toHaveLength(query.limit);
      }
      await between(pages.length);
    } while (cursor !== null);
    return { pages, ids: pages.flatMap((page) => ids(page.tasks)) };
  }

  describe('GET /api/tasks', () => {
    it.each([7, 100, 500])(
      'walks every task exactly once, newest first, in pages of %i',
      async (limit) => {
        const expected = await expectedOrder();
        const walk = await walkTasks(admin, { limit });
        expect(walk.ids).toEqual(expected);
        expect(new Set(walk.ids).size).toBe(TASK_COUNT);
        expect(walk.pages).toHaveLength(Math.ceil(TASK_COUNT / limit));
      },
    );

    it('pages 100 tasks by default and at most 500', async () => {
      const first = await getTasks(admin, {});
      expect(first.tasks).toHaveLength(100);
      expect(first.nextCursor).toEqual(expect.any(String));
      const largest = await getTasks(admin, { limit: 500 });
      expect(largest.tasks).toHaveLength(500);
      const one = await getTasks(admin, { limit: 1 });
      expect(ids(one.tasks)).toEqual((await expectedOrder()).slice(0, 1));
    });

    it('gives every page the whole task, with assignees, checklist and attachments', async () => {
      const page = await getTasks(even, { limit: 3 });
      for (const task of page.tasks) {
        expect(task.assignedTo.map((a) => a._id)).toContain(even.id);
        expect(task.todoChecklist.map((item) => item.text)).toEqual(['Step 1', 'Step 2']);
        expect(task.attachments).toHaveLength(1);
      }
    });

    it('keeps older pages in place while new tasks are created between fetches', async () => {
      const before = await expectedOrder();
      const created: Task[] = [];
      try {
        const walk = await walkTasks(admin, { limit: 150 }, async (page) => {
          if (page <= 2) created.push(await createTask(ctx, admin, [even.id]));
        });
        // The walk saw the list as it was when it began: nothing twice, nothing missing.
        expect(walk.ids).toEqual(before);
        // A new walk starts with the new tasks, newest first.
        const first = await getTasks(admin, { limit: 2 });
        expect(ids(first.tasks)).toEqual([created[1]!._id, created[0]!._id]);
      } finally {
        const createdIds = created.map((task) => task._id);
        if (createdIds.length > 0) {
          await ctx.db.deleteFrom('tasks').where('id', 'in', createdIds).execute();
        }
      }
    });

    it('shows a member only their own tasks, page after page', async () => {
      for (const member of [even, third]) {
        const walk = await walkTasks(member, { limit: 45 });
        expect(walk.ids).toEqual(await expectedOrder({ assigneeId: member.id }));
        for (const page of walk.pages) {
          for (const task of page.tasks) {
            expect(task.assignedTo.map((a) => a._id)).toContain(member.id);
          }
        }
      }
    });

    it.each<TaskStatus>(['Pending', 'In Progress', 'Completed'])(
      'pages the %s tab through its own cursor',
      async (status) => {
        const walk = await walkTasks(admin, { status, limit: 60 });
        expect(walk.ids).toEqual(await expectedOrder({ status }));
        const mine = await walkTasks(third, { status, limit: 20 });
        expect(mine.ids).toEqual(await expectedOrder({ status, assigneeId: third.id }));
      },
    );

    it('counts every visible task in statusSummary, whatever the page or filter', async () => {
      for (const [session, assigneeId] of [
        [admin, undefined],
        [even, even.id],
      ] as const) {
        const summary = await statusSummaryOf(assigneeId);
        const walk = await walkTasks(session, { limit: 120 });
        const filtered = await walkTasks(session, { status: 'Completed', limit: 50 });
        for (const page of [...walk.pages, ...filtered.pages]) {
          expect(page.statusSummary).toEqual(summary);
        }
      }
    });

    it.each([['0'], ['501'], ['-1'], ['1.5'], ['abc'], [''], ['1e2'], [' 5']])(
      'refuses limit=%j with a 400',
      async (limit) => {
        const res = await ctx.api.get('/api/tasks').query({ limit }).set(admin.auth).expect(400);
        expect(res.body.message).toBe(validationMessages.invalidPageLimit);
        expect(res.body.errors).toEqual([
          { path: 'limit', message: validationMessages.invalidPageLimit },
        ]);
      },
    );

    it('refuses a repeated limit', async () => {
      const res = await ctx.api.get('/api/tasks?limit=5&limit=6').set(admin.auth).expect(400);
      expect(res.body.message).toBe(validationMessages.invalidPageLimit);
    });

    it.each([
      ['not base64url', 'abc$def'],
      ['empty', ''],
      ['not JSON', Buffer.from('hello').toString('base64url')],
      ['not a pair', cursorOf(['2030-01-01T00:00:00.000Z'])],
      ['numbers', cursorOf([1, 2])],
      ['an id that is no UUID', cursorOf(['2030-01-01T00:00:00.000Z', 'x'])],
      ['too long', 'a'.repeat(2000)],
    ])('refuses a cursor that is %s with a 400', async (_what, cursor) => {
      const res = await ctx.api.get('/api/tasks').query({ cursor }).set(admin.auth).expect(400);
      expect(res.body.message).toBe(validationMessages.invalidCursor);
      expect(res.body.errors).toEqual([
        { path: 'cursor', message: validationMessages.invalidCursor },
      ]);
    });

    it('answers the last page with nextCursor null, and an empty page after it', async () => {
      const expected = await expectedOrder();
      const last = expected.at(-1)!;
      const row = await ctx.db
        .selectFrom('tasks')
        .select('created_at')
        .where('id', '=', last)
        .executeTakeFirstOrThrow();
      const cursor = cursorOf([row.created_at, last]);
      const after = await getTasks(admin, { cursor });
      expect(after.tasks).toEqual([]);
      expect(after.nextCursor).toBeNull();
      const tail = await getTasks(admin, {
        limit: 500,
        cursor: (await getTasks(admin, {})).nextCursor!,
      });
      expect(ids(tail.tasks)).toEqual(expected.slice(100, 600));
      expect(tail.nextCursor).toEqual(expect.any(String));
    });
  });

  describe('GET /api/users', () => {
    /** Members named so that pages fall inside runs of equal names, and search has a target. */
    beforeAll(async () => {
      await seedMembers(ctx.db, 3, 'Alpha Twin');
      await seedMembers(ctx.db, 3, 'Alpha Twin');
      await seedMembers(ctx.db, 2, 'Percent 100% Sure_Thing');
      await seedMembers(ctx.db, 25, 'Zed');
      await signUp(ctx, 'member', {
        name: 'Casey Case',
        email: `ALPHA.mail.${Date.now()}@Example.com`,
      });
    });

    async function expectedMembers(): Promise<string[]> {
      const rows = await ctx.db
        .selectFrom('users')
        .select('id')
        .orderBy('name')
        .orderBy('id')
        .execute();
      return rows.map((row) => row.id);
    }

    async function walkUsers(query: Record<string, string | number> & { limit: number }) {
      const pages: UserWithTaskCounts[][] = [];
      let cursor: string | undefined;
      do {
        const res = await ctx.api
          .get('/api/users')
          .query({ ...query, ...(cursor ? { cursor } : {}) })
          .set(admin.auth)
          .expect(200);
        expect(Array.isArray(res.body)).toBe(true);
        pages.push(res.body);
        cursor = res.headers[NEXT_CURSOR_HEADER.toLowerCase()];
        if (cursor !== undefined) expect(res.body).toHaveLength(query.limit);
      } while (cursor !== undefined);
      return { pages, ids: pages.flat().map((user) => user._id) };
    }

    it('walks every member exactly once, by name then id, following X-Next-Cursor', async () => {
      const expected = await expectedMembers();
      for (const limit of [1, 4, 100]) {
        const walk = await walkUsers({ limit });
        expect(walk.ids).toEqual(expected);
        expect(walk.pages).toHaveLength(Math.max(1, Math.ceil(expected.length / limit)));
      }
      // Everyone, admins included (issue 18).
      expect(expected).toContain(admin.id);
    });

    it('pages 100 members by default', async () => {
      await seedMembers(ctx.db, 120, 'Yara');
      const res = await ctx.api.get('/api/users').set(admin.auth).expect(200);
      expect(res.body).toHaveLength(100);
      expect(res.headers[NEXT_CURSOR_HEADER.toLowerCase()]).toEqual(expect.any(String));
      const rest = await ctx.api
        .get('/api/users')
        .query({ limit: 500, cursor: res.headers[NEXT_CURSOR_HEADER.toLowerCase()] })
        .set(admin.auth)
        .expect(200);
      expect(rest.headers[NEXT_CURSOR_HEADER.toLowerCase()]).toBeUndefined();
      expect([...res.body, ...rest.body].map((user) => user._id)).toEqual(await expectedMembers());
    });

    it('gives each member of a page the counts of their own tasks', async () => {
      const res = await ctx.api.get('/api/users').query({ limit: 500 }).set(admin.auth).expect(200);
      const listed = new Map<string, UserWithTaskCounts>(
        res.body.map((user: UserWithTaskCounts) => [user._id, user]),
      );
      for (const member of [even, third]) {
        const summary = await statusSummaryOf(member.id);
        expect(summary.all).toBeGreaterThan(0);
        expect(listed.get(member.id)).toMatchObject({
          pendingTasks: summary.pendingTasks,
          inProgressTasks: summary.inProgressTasks,
          completedTasks: summary.completedTasks,
        });
      }
      const zed = res.body.find((user: UserWithTaskCounts) => user.name.startsWith('Zed'));
      expect(zed).toMatchObject({ pendingTasks: 0, inProgressTasks: 0, completedTasks: 0 });
    });

    it('finds members by part of their name or e-mail, ignoring case and outer spaces', async () => {
      const walk = await walkUsers({ search: '  aLpHa ', limit: 2 });
      const names = walk.pages.flat().map((user) => user.name);
      expect(names).toEqual([
        ...Array.from({ length: 6 }, () => expect.stringMatching(/^Alpha Twin 000[0-2]$/)),
        'Casey Case',
      ]);
      expect(walk.pages).toHaveLength(4);
    });

    it('takes % and _ in a search literally', async () => {
      const percent = await walkUsers({ search: '100%', limit: 10 });
      expect(percent.pages.flat().map((user) => user.name)).toEqual([
        'Percent 100% Sure_Thing 0000',
        'Percent 100% Sure_Thing 0001',
      ]);
      const underscore = await walkUsers({ search: 'e_t', limit: 10 });
      expect(underscore.pages.flat()).toHaveLength(2);
      // As LIKE wildcards these would match 'Alpha Twin 0000' and 'Zed 0000'.
      for (const search of ['Twin_', 'Zed_', 'Alpha%Twin']) {
        expect((await walkUsers({ search, limit: 10 })).ids, search).toEqual([]);
      }
    });

    it('treats an empty or blank search as no search', async () => {
      const all = await walkUsers({ limit: 500 });
      expect((await walkUsers({ search: '   ', limit: 500 })).ids).toEqual(all.ids);
    });

    it.each([
      ['limit=0', { limit: '0' }, validationMessages.invalidPageLimit],
      ['limit=501', { limit: '501' }, validationMessages.invalidPageLimit],
      ['limit=ten', { limit: 'ten' }, validationMessages.invalidPageLimit],
      ['a bad cursor', { cursor: 'abc$' }, validationMessages.invalidCursor],
      [
        'a cursor that decodes to nothing',
        { cursor: cursorOf({}) },
        validationMessages.invalidCursor,
      ],
      ['a search of 101 characters', { search: 'x'.repeat(101) }, validationMessages.invalidSearch],
    ])('refuses %s with a 400', async (_what, query, message) => {
      const res = await ctx.api.get('/api/users').query(query).set(admin.auth).expect(400);
      expect(res.body.message).toBe(message);
    });

    it('accepts a search of 100 characters', async () => {
      await ctx.api
        .get('/api/users')
        .query({ search: 'x'.repeat(100) })
        .set(admin.auth)
        .expect(200, []);
    });
  });

  it('lets a browser on an allowed origin read X-Next-Cursor', async () => {
    const origin = 'https://tasks.example.com';
    const cors = await createTestContext({ corsOrigins: [origin] });
    try {
      const res = await cors.api.get('/api/health').set('Origin', origin).expect(200);
      const exposed = String(res.headers['access-control-expose-headers']).toLowerCase();
      expect(exposed.split(',').map((name) => name.trim())).toContain('x-next-cursor');
    } finally {
      await cors.close();
    }
  });
});
