import { describe, expect, it } from 'vitest';
import { buildTask, buildTaskList } from '../../../test/factories';
import { stubApi } from '../../../test/stub-api';
import { cursorAt, getMonthTasks } from './get-month-tasks';

const FROM = '2031-06-01T00:00:00.000Z';
const BEFORE = '2031-07-01T00:00:00.000Z';
const inJune = buildTask({ title: 'June', dueDate: '2031-06-10T00:00:00.000Z' });
const inJuly = buildTask({ title: 'July', dueDate: '2031-07-02T00:00:00.000Z' });
const inMay = buildTask({ title: 'May', dueDate: '2031-05-02T00:00:00.000Z' });

describe("a month's tasks", () => {
  it('starts the due-date order at the month, and stops past it', async () => {
    const stub = stubApi(() => ({
      status: 200,
      data: { ...buildTaskList([inJune, inJuly]), nextCursor: 'more' },
    }));
    const month = await getMonthTasks(FROM, BEFORE);
    expect(month).toEqual({ tasks: [inJune], truncated: false });
    expect(stub.requests).toHaveLength(1);
    expect(stub.requests[0]!.params).toEqual({
      sort: 'dueDate',
      order: 'asc',
      limit: 100,
      cursor: cursorAt(FROM),
    });
    expect(JSON.parse(atob(cursorAt(FROM).replace(/-/g, '+').replace(/_/g, '/')))).toEqual([
      'dueDate',
      'asc',
      FROM,
      '00000000-0000-0000-0000-000000000000',
    ]);
  });

  it('reads from the start of the list when the server refuses the cursor', async () => {
    const stub = stubApi((request) =>
      request.params?.cursor
        ? { status: 400, data: { message: 'cursor: not a cursor of this list' } }
        : { status: 200, data: buildTaskList([inMay, inJune, inJuly]) },
    );
    expect((await getMonthTasks(FROM, BEFORE)).tasks).toEqual([inJune]);
    expect(stub.requests.map((request) => request.params?.cursor)).toEqual([
      cursorAt(FROM),
      undefined,
    ]);
  });
});
