import ExcelJS from 'exceljs';
import { binary } from '../helpers/expectations.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_BATCH as REPORT_BATCH } from '../../src/tasks/repository.js';
import { seedMembers, seedTasks, type SeededTask } from '../helpers/bulk-seed.js';
import { signUp, type Session } from '../helpers/factories.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

/**
 * The reports stream in keyset batches: with more tasks and more members than one batch, every
 * row must still arrive exactly once, in order, in a workbook that opens.
 */

const TASK_COUNT = 3 * REPORT_BATCH + 17;
const MEMBER_COUNT = REPORT_BATCH + 203;

/** The rows of the only worksheet, as arrays of cell values (column A first). */
async function sheetValues(body: Buffer): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  expect(workbook.worksheets).toHaveLength(1);
  const values: unknown[][] = [];
  workbook.worksheets[0]!.eachRow((row) => {
    values.push((row.values as unknown[]).slice(1));
  });
  return values;
}

describe(`reports of thousands of rows (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;
  let members: Array<{ id: string; name: string; email: string }>;
  let tasks: SeededTask[];

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
    members = await seedMembers(ctx.db, MEMBER_COUNT, 'Reported');
    // Groups of five tasks share a creation time, so batch boundaries fall inside a group.
    tasks = await seedTasks(ctx.db, {
      count: TASK_COUNT,
      createdBy: admin.id,
      sameTimeGroups: 5,
      assign: (i) => [members[i % MEMBER_COUNT]!.id, members[(i * 7 + 1) % MEMBER_COUNT]!.id],
    });
  });
  afterAll(() => ctx.close());

  const download = (path: string) =>
    ctx.api.get(path).set(admin.auth).buffer(true).parse(binary).expect(200);

  it('the tasks report lists every task once, newest first, with its assignees', async () => {
    const res = await download('/api/reports/export/tasks');
    const [header, ...rows] = await sheetValues(res.body);
    expect(header?.[0]).toBe('Task ID');
    expect(rows).toHaveLength(TASK_COUNT);
    const expectedOrder = await ctx.db
      .selectFrom('tasks')
      .select('id')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    expect(rows.map((row) => row[0])).toEqual(expectedOrder.map((row) => row.id));
    const byId = new Map(tasks.map((task) => [task.id, task]));
    const label = new Map(members.map((m) => [m.id, `${m.name} (${m.email})`]));
    for (const row of rows) {
      const task = byId.get(row[0] as string)!;
      expect(row[4]).toBe(task.status);
      expect(row[8]).toBe(task.assigneeIds.map((id) => label.get(id)).join(', '));
    }
  });

  it('the users report lists every member once, by name, with their counts', async () => {
    const res = await download('/api/reports/export/users');
    const [header, ...everyone] = await sheetValues(res.body);
    expect(header?.[0]).toBe('Name');
    // Everyone is listed (issue 18): the members, and the admin who downloads it.
    expect(everyone.filter((row) => row[2] === 'admin')).toHaveLength(1);
    const rows = everyone.filter((row) => row[2] === 'member');
    expect(rows).toHaveLength(MEMBER_COUNT);
    const expected = members
      .map((member) => {
        const own = tasks.filter((task) => task.assigneeIds.includes(member.id));
        const count = (status: string) => own.filter((task) => task.status === status).length;
        return [
          member.name,
          member.email,
          'member',
          own.length,
          count('Pending'),
          count('In Progress'),
          count('Completed'),
        ];
      })
      .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(rows).toEqual(expected);
  });
});
