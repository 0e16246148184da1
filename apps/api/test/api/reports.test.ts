import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import { binary } from '../helpers/expectations.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages, type Task } from '@task-manager/shared';
import { createTask, signUp, taskRow, type Session } from '../helpers/factories.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const TASKS = '/api/reports/export/tasks';
const USERS = '/api/reports/export/users';
const TASK_HEADER = [
  'Task ID',
  'Title',
  'Description',
  'Priority',
  'Status',
  'Progress',
  'Due Date',
  'Created On',
  'Assigned To',
];
const USER_HEADER = [
  'Name',
  'Email',
  'Role',
  'Total Assigned Tasks',
  'Pending',
  'In Progress',
  'Completed',
];

/** created_at has millisecond precision: a short pause gives each task its own timestamp. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

/** The only worksheet of a workbook answer, and its rows as arrays of cells (column A first). */
async function readSheet(body: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  expect(workbook.worksheets).toHaveLength(1);
  const sheet = workbook.worksheets[0]!;
  const rows: ExcelJS.Cell[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row) => {
    const cells: ExcelJS.Cell[] = [];
    for (let column = 1; column <= Math.max(row.cellCount, sheet.columnCount); column++) {
      cells.push(row.getCell(column));
    }
    rows.push(cells);
  });
  return { sheet, rows, values: rows.map((cells) => cells.map((cell) => cell.value)) };
}

/** Same instant to the second (spreadsheet dates are fractions of a day). */
function expectSameTime(value: unknown, iso: string) {
  expect(value).toBeInstanceOf(Date);
  expect(Math.abs((value as Date).getTime() - Date.parse(iso))).toBeLessThan(1000);
}

const who = (session: Session, name: string) => `${name} (${session.email})`;

describe(`reports (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;
  let alice: Session;
  let bob: Session;
  let carol: Session;
  let dan: Session;
  let zoe: Session;
  /** In creation order: the oldest first. */
  const tasks: Task[] = [];

  const download = (path: string, session: Session) =>
    ctx.api.get(path).set(session.auth).buffer(true).parse(binary).expect(200);

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin', { name: 'Ada Admin' });
    // First letters differ, so the order by name is the same under any collation.
    alice = await signUp(ctx, 'member', { name: 'Alice Example' });
    bob = await signUp(ctx, 'member', { name: 'Bob Example' });
    carol = await signUp(ctx, 'member', { name: 'Carol <Tags> & "Quotes"' });
    dan = await signUp(ctx, 'member', { name: 'Dan Idle' });
    zoe = await signUp(ctx, 'member', { name: 'Zoë Ångström' });
    const eve = await signUp(ctx, 'member', { name: 'Eve Leaving' });

    const three = [
      { text: 'One', completed: false },
      { text: 'Two', completed: false },
      { text: 'Three', completed: false },
    ];
    const make = async (assignees: Session[], overrides: Parameters<typeof createTask>[3] = {}) => {
      const task = await createTask(
        ctx,
        admin,
        assignees.map((s) => s.id),
        overrides,
      );
      tasks.push(task);
      await tick();
      return task;
    };

    // 1: Alice, Pending, 0%.
    await make([alice], { title: 'Plan the offsite', priority: 'High' });
    // 2: Bob then Alice, ticked by Alice to 1 of 2: In Progress, 50%.
    const t2 = await make([bob, alice], { title: 'Review budget', priority: 'Medium' });
    await ctx.api
      .put(`/api/tasks/${t2._id}/todo`)
      .set(alice.auth)
      .send({
        todoChecklist: [
          { text: 'Draft', completed: true },
          { text: 'Review', completed: false },
        ],
      })
      .expect(200);
    // 3: Bob, completed through the status endpoint.
    const t3 = await make([bob], { title: 'Ship release', priority: 'Low' });
    await ctx.api
      .put(`/api/tasks/${t3._id}/status`)
      .set(bob.auth)
      .send({ status: 'Completed' })
      .expect(200);
    // 4: Alice, 1 of 3 ticked: In Progress, 33%.
    const t4 = await make([alice], { title: 'Hire designer', todoChecklist: three });
    await ctx.api
      .put(`/api/tasks/${t4._id}/todo`)
      .set(admin.auth)
      .send({ todoChecklist: three.map((item, i) => ({ ...item, completed: i === 0 })) })
      .expect(200);
    // 5: Carol, text that looks like formulas.
    await make([carol], {
      title: '=1+1',
      description: '=HYPERLINK("http://evil.example","click")',
    });
    // 6: Zoë and the admin, completed by the admin.
    const t6 = await make([zoe, admin], {
      title: 'Fix <b>bold</b> & "quotes" — naïve café',
      priority: 'High',
    });
    await ctx.api
      .put(`/api/tasks/${t6._id}/status`)
      .set(admin.auth)
      .send({ status: 'Completed' })
      .expect(200);
    // 7: only Eve, who then leaves: the task stays, unassigned.
    await make([eve], { title: 'Orphaned task' });
    await ctx.api.delete(`/api/users/${eve.id}`).set(admin.auth).expect(200);

    // Re-read every task so that status and progress are the stored ones.
    for (const [i, task] of tasks.entries()) {
      const res = await ctx.api.get(`/api/tasks/${task._id}`).set(admin.auth).expect(200);
      tasks[i] = res.body;
    }
    expect(tasks.map((t) => [t.status, t.progress])).toEqual([
      ['Pending', 0],
      ['In Progress', 50],
      ['Completed', 100],
      ['In Progress', 33],
      ['Pending', 0],
      ['Completed', 100],
      ['Pending', 0],
    ]);
  });
  afterAll(() => ctx.close());

  describe('GET /api/reports/export/tasks', () => {
    it('sends an xlsx attachment named tasks_report.xlsx', async () => {
      const res = await download(TASKS, admin);
      expect(res.headers['content-type']).toBe(XLSX);
      expect(res.headers['content-disposition']).toBe('attachment; filename="tasks_report.xlsx"');
      expect(res.headers['cache-control']).toBe('no-store');
      // A zip archive, as every xlsx file is.
      expect((res.body as Buffer).subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    });

    it('has the header row and one row per task, newest first', async () => {
      const { values } = await readSheet((await download(TASKS, admin)).body);
      expect(values[0]).toEqual(TASK_HEADER);
      expect(values).toHaveLength(1 + tasks.length);
      const newestFirst = [...tasks].reverse();
      expect(values.slice(1).map((row) => row[0])).toEqual(newestFirst.map((t) => t._id));
      expect(values.slice(1).map((row) => row[1])).toEqual(newestFirst.map((t) => t.title));
    });

    it('writes each task as stored: text, priority, status, progress, dates and assignees', async () => {
      const { values } = await readSheet((await download(TASKS, admin)).body);
      const byId = new Map(values.slice(1).map((row) => [row[0], row]));
      const assigned = [
        who(alice, 'Alice Example'),
        `${who(bob, 'Bob Example')}, ${who(alice, 'Alice Example')}`,
        who(bob, 'Bob Example'),
        who(alice, 'Alice Example'),
        who(carol, 'Carol <Tags> & "Quotes"'),
        `${who(zoe, 'Zoë Ångström')}, ${who(admin, 'Ada Admin')}`,
        'Unassigned',
      ];
      for (const [i, task] of tasks.entries()) {
        const row = byId.get(task._id);
        expect(row, `row of task ${i + 1}`).toBeDefined();
        expect(row!.slice(0, 6)).toEqual([
          task._id,
          task.title,
          task.description,
          task.priority,
          task.status,
          `${task.progress}%`,
        ]);
        expectSameTime(row![6], task.dueDate);
        expectSameTime(row![7], task.createdAt);
        expect(row![8]).toBe(assigned[i]);
      }
      expect(byId.get(tasks[1]!._id)!.slice(4, 6)).toEqual(['In Progress', '50%']);
      expect(byId.get(tasks[3]!._id)!.slice(4, 6)).toEqual(['In Progress', '33%']);
      expect(byId.get(tasks[2]!._id)!.slice(4, 6)).toEqual(['Completed', '100%']);
    });

    it('formats the date columns as dates', async () => {
      const { rows } = await readSheet((await download(TASKS, admin)).body);
      const [, first] = rows;
      expect(first![6]!.type).toBe(ExcelJS.ValueType.Date);
      expect(first![6]!.numFmt).toBe('yyyy-mm-dd');
      expect(first![7]!.type).toBe(ExcelJS.ValueType.Date);
      expect(first![7]!.numFmt).toBe('yyyy-mm-dd');
    });

    it('stores text that looks like a formula as plain text, never as a formula', async () => {
      const { rows } = await readSheet((await download(TASKS, admin)).body);
      const row = rows.find((cells) => cells[0]!.value === tasks[4]!._id)!;
      const [, title, description] = row;
      expect(title!.value).toBe('=1+1');
      expect(title!.type).toBe(ExcelJS.ValueType.String);
      expect(title!.formula).toBeUndefined();
      expect(description!.value).toBe('=HYPERLINK("http://evil.example","click")');
      expect(description!.type).toBe(ExcelJS.ValueType.String);
      expect(description!.formula).toBeUndefined();
      // No cell anywhere in the sheet is a formula.
      for (const cells of rows) {
        for (const cell of cells) expect(cell.type).not.toBe(ExcelJS.ValueType.Formula);
      }
    });

    it('follows later changes', async () => {
      const extra = await createTask(ctx, admin, [dan.id], { title: 'Late addition' });
      try {
        const { values } = await readSheet((await download(TASKS, admin)).body);
        expect(values).toHaveLength(2 + tasks.length);
        expect(values[1]!.slice(0, 2)).toEqual([extra._id, 'Late addition']);
        expect(values[1]![8]).toBe(who(dan, 'Dan Idle'));
      } finally {
        await ctx.api.delete(`/api/tasks/${extra._id}`).set(admin.auth).expect(200);
      }
      const { values } = await readSheet((await download(TASKS, admin)).body);
      expect(values).toHaveLength(1 + tasks.length);
    });
  });

  describe('GET /api/reports/export/users', () => {
    it('sends an xlsx attachment named user_details.xlsx', async () => {
      const res = await download(USERS, admin);
      expect(res.headers['content-type']).toBe(XLSX);
      expect(res.headers['content-disposition']).toBe('attachment; filename="user_details.xlsx"');
      expect(res.headers['cache-control']).toBe('no-store');
    });

    it('lists everyone, admins included, by name with their role and task counts', async () => {
      const { values } = await readSheet((await download(USERS, admin)).body);
      const listed = await ctx.api
        .get(`/api/users?q=${encodeURIComponent(admin.email)}`)
        .set(admin.auth);
      const own = listed.body[0] as Record<string, number>;
      const adminTotal = own.pendingTasks! + own.inProgressTasks! + own.completedTasks!;
      expect(adminTotal).toBeGreaterThan(0);
      expect(values).toEqual([
        USER_HEADER,
        [
          'Ada Admin',
          admin.email,
          'admin',
          adminTotal,
          own.pendingTasks,
          own.inProgressTasks,
          own.completedTasks,
        ],
        // Alice: 1 Pending (1), 2 In Progress (2, 4).
        ['Alice Example', alice.email, 'member', 3, 1, 2, 0],
        // Bob: 2 In Progress, 3 Completed.
        ['Bob Example', bob.email, 'member', 2, 0, 1, 1],
        ['Carol <Tags> & "Quotes"', carol.email, 'member', 1, 1, 0, 0],
        ['Dan Idle', dan.email, 'member', 0, 0, 0, 0],
        ['Zoë Ångström', zoe.email, 'member', 1, 0, 0, 1],
      ]);
      // Eve was deleted.
    });

    it('writes the counts as numbers', async () => {
      const { rows } = await readSheet((await download(USERS, admin)).body);
      for (const cells of rows.slice(1)) {
        for (const cell of cells.slice(3)) expect(cell.type).toBe(ExcelJS.ValueType.Number);
      }
    });

    it('follows status changes', async () => {
      // Carol's task 5 completed: her Pending count moves to Completed.
      await ctx.api
        .put(`/api/tasks/${tasks[4]!._id}/status`)
        .set(carol.auth)
        .send({ status: 'Completed' })
        .expect(200);
      try {
        const { values } = await readSheet((await download(USERS, admin)).body);
        expect(values.find((row) => row[1] === carol.email)).toEqual([
          'Carol <Tags> & "Quotes"',
          carol.email,
          'member',
          1,
          0,
          0,
          1,
        ]);
      } finally {
        await ctx.api
          .put(`/api/tasks/${tasks[4]!._id}/status`)
          .set(carol.auth)
          .send({ status: 'Pending' })
          .expect(200);
      }
    });
  });

  describe('access', () => {
    it.each([TASKS, USERS])('%s refuses members with 403', async (path) => {
      const res = await ctx.api.get(path).set(alice.auth).expect(403);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual({ message: apiMessages.adminOnly, code: expect.any(String) });
      expect(apiMessages.adminOnly).toBe('Access denied, admin only');
    });

    it.each([TASKS, USERS])('%s refuses anonymous callers with 401', async (path) => {
      const res = await ctx.api.get(path).expect(401);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual({ message: apiMessages.notAuthorized, code: expect.any(String) });
      expect(apiMessages.notAuthorized).toBe('Not authorized');
    });

    it.each([TASKS, USERS])('%s refuses a bad token with 401', async (path) => {
      const res = await ctx.api.get(path).set('Authorization', 'Bearer not.a.token').expect(401);
      expect(res.body).toEqual({ message: apiMessages.notAuthorized, code: expect.any(String) });
    });
  });
});

describe(`reports on an empty database (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
  });
  afterAll(() => ctx.close());

  const download = (path: string) =>
    ctx.api.get(path).set(admin.auth).buffer(true).parse(binary).expect(200);

  it('gives a tasks workbook with only the header row', async () => {
    const res = await download(TASKS);
    expect(res.headers['content-type']).toBe(XLSX);
    const { values } = await readSheet(res.body);
    expect(values).toEqual([TASK_HEADER]);
  });

  it('gives a users workbook with only the admin, who has no task', async () => {
    const res = await download(USERS);
    expect(res.headers['content-type']).toBe(XLSX);
    const { values } = await readSheet(res.body);
    expect(values).toEqual([USER_HEADER, [admin.user.name, admin.email, 'admin', 0, 0, 0, 0]]);
  });
});

describe(`tasks report over many pages (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;
  let member: Session;
  const inserted: Array<{ id: string; created_at: string }> = [];

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
    member = await signUp(ctx, 'member', { name: 'Many Tasks' });
    // 1,201 tasks in three groups that share a creation time, so that page boundaries (every
    // 500 rows) fall inside a group and the id must break the ties.
    const groups = [
      { at: '2030-01-01T00:00:00.000Z', size: 450 },
      { at: '2030-01-02T00:00:00.000Z', size: 450 },
      { at: '2030-01-03T00:00:00.000Z', size: 301 },
    ];
    for (const { at, size } of groups) {
      const rows = Array.from({ length: size }, (_, i) =>
        taskRow(admin.id, at, { id: randomUUID(), title: `Bulk ${at.slice(0, 10)} #${i}` }),
      );
      for (let start = 0; start < rows.length; start += 150) {
        const chunk = rows.slice(start, start + 150);
        await ctx.db.insertInto('tasks').values(chunk).execute();
        await ctx.db
          .insertInto('task_assignees')
          .values(chunk.map((row) => ({ task_id: row.id, user_id: member.id, position: 0 })))
          .execute();
      }
      inserted.push(...rows.map(({ id, created_at }) => ({ id, created_at })));
    }
  });
  afterAll(() => ctx.close());

  it('lists every task exactly once, newest first', async () => {
    const res = await ctx.api.get(TASKS).set(admin.auth).buffer(true).parse(binary).expect(200);
    const { values } = await readSheet(res.body);
    expect(values[0]).toEqual(TASK_HEADER);
    const rows = values.slice(1);
    expect(rows).toHaveLength(inserted.length);
    const ids = rows.map((row) => row[0] as string);
    expect(new Set(ids).size).toBe(inserted.length);
    expect([...ids].sort()).toEqual(inserted.map((t) => t.id).sort());
    const createdAt = new Map(inserted.map((t) => [t.id, Date.parse(t.created_at)]));
    const times = ids.map((id) => createdAt.get(id)!);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    for (const row of rows) expect(row[8]).toBe(`Many Tasks (${member.email})`);
  });

  it('still counts them all for the member in the users report', async () => {
    const res = await ctx.api.get(USERS).set(admin.auth).buffer(true).parse(binary).expect(200);
    const { values } = await readSheet(res.body);
    expect(values).toContainEqual([
      'Many Tasks',
      member.email,
      'member',
      inserted.length,
      inserted.length,
      0,
      0,
    ]);
    expect(values).toHaveLength(3);
  });
});
