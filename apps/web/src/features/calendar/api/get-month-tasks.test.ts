import { describe, expect, it } from 'vitest';
import { buildTask, buildTaskList } from '../../../test/factories';
import { stubApi } from '../../../test/stub-api';
import { getMonthTasks, MONTH_TASK_CAP } from './get-month-tasks';

const FROM = '2031-06-01T00:00:00.000Z';
const BEFORE = '2031-07-01T00:00:00.000Z';
const juneTask = (day: number) =>
  buildTask({
    title: `June ${day}`,
    dueDate: `2031-06-${String(day).padStart(2, '0')}T00:00:00.000Z`,
  });

const june2 = juneTask(2);
const june5 = juneTask(5);
const june10 = juneTask(10);
const june20 = juneTask(20);

describe("a month's tasks", () => {
  it("asks for the month's due-date range, by due date, and follows the pages", async () => {
    const stub = stubApi((request) =>
      request.params?.cursor
        ? { status: 200, data: buildTaskList([june20]) }
        : { status: 200, data: { ...buildTaskList([june2, june10]), nextCursor: 'next' } },
    );
    const month = await getMonthTasks(FROM, BEFORE);
    expect(month).toEqual({ tasks: [june2, june10, june20], truncated: false });
    expect(stub.requests.map((request) => request.params)).toEqual([
      { sort: 'dueDate', order: 'asc', dueFrom: FROM, dueBefore: BEFORE, limit: 100 },
      {
        sort: 'dueDate',
        order: 'asc',
        dueFrom: FROM,
        dueBefore: BEFORE,
        limit: 100,
        cursor: 'next',
      },
    ]);
  });

  it('stops at the cap and says the month has more', async () => {
    const stub = stubApi(() => ({
      status: 200,
      data: { ...buildTaskList(Array.from({ length: 100 }, () => june5)), nextCursor: 'more' },
    }));
    const month = await getMonthTasks(FROM, BEFORE);
    expect(month.truncated).toBe(true);
    expect(month.tasks).toHaveLength(MONTH_TASK_CAP);
    expect(stub.requests).toHaveLength(MONTH_TASK_CAP / 100);
  });
});
