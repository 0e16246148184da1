import type { Task, TaskListResponse } from '@task-manager/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, statusOf } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

const PAGE_SIZE = 100;
/** A month with more tasks than this shows the first ones and says so. */
export const MONTH_TASK_CAP = 3000;

export interface MonthTasks {
  tasks: Task[];
  /** More tasks fall due in the month than were loaded. */
  truncated: boolean;
}

/** Pages read for one month at most, when the list has to be read from its start. */
const MAX_PAGES = 30;

/**
 * A cursor that starts the due-date order at `from`: the list's keyset cursor for
 * `sort=dueDate&order=asc` is the last row's (due date, id), so (from, the smallest id) starts
 * right at the month instead of at the oldest task. Built here because the list has no due-date
 * range filter; if the server refuses it (400), the month is read from the start instead.
 */
export function cursorAt(from: string): string {
  const json = JSON.stringify(['dueDate', 'asc', from, '00000000-0000-0000-0000-000000000000']);
  return btoa(json).replace(/\+/g, '-').replace(/\//g, '_').replace(/=/g, '');
}

async function readMonth(from: string, before: string, start: string | null): Promise<MonthTasks> {
  const tasks: Task[] = [];
  let cursor = start;
  for (let pages = 1; ; pages += 1) {
    const params: Record<string, string | number> = {
      sort: 'dueDate',
      order: 'asc',
      limit: PAGE_SIZE,
    };
    if (cursor) params.cursor = cursor;
    const { data }: { data: TaskListResponse } = await api.get<TaskListResponse>('/api/tasks', {
      params,
    });
    for (const task of data.tasks) {
      if (task.dueDate >= from && task.dueDate < before) tasks.push(task);
    }
    const last = data.tasks.at(-1);
    if (!data.nextCursor || !last || last.dueDate >= before) return { tasks, truncated: false };
    if (tasks.length >= MONTH_TASK_CAP || pages >= MAX_PAGES) return { tasks, truncated: true };
    cursor = data.nextCursor;
  }
}

/** The caller's tasks due in [from, before) (ISO instants), by due date. */
export async function getMonthTasks(from: string, before: string): Promise<MonthTasks> {
  try {
    return await readMonth(from, before, cursorAt(from));
  } catch (error) {
    if (statusOf(error) !== 400) throw error;
    return readMonth(from, before, null);
  }
}

export function monthTasksQueryOptions(month: string, from: string, before: string) {
  return queryOptions({
    queryKey: queryKeys.tasks.month(month),
    queryFn: () => getMonthTasks(from, before),
  });
}

export function useMonthTasks(month: string, from: string, before: string) {
  return useQuery(monthTasksQueryOptions(month, from, before));
}
