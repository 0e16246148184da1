import type { Task, TaskListResponse } from '@task-manager/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

const PAGE_SIZE = 100;
/** A month with more tasks than this shows the first ones and says so. */
export const MONTH_TASK_CAP = 3000;

export interface MonthTasks {
  tasks: Task[];
  /** More tasks fall due in the month than were loaded. */
  truncated: boolean;
}

/** Pages read for one month at most (MONTH_TASK_CAP tasks). */
const MAX_PAGES = MONTH_TASK_CAP / PAGE_SIZE;

/**
 * The caller's tasks due in [from, before) (ISO instants), by due date: the list's due-date
 * range (`dueFrom`, `dueBefore`) read page by page, up to MONTH_TASK_CAP.
 */
export async function getMonthTasks(from: string, before: string): Promise<MonthTasks> {
  const tasks: Task[] = [];
  let cursor: string | null = null;
  for (let pages = 1; ; pages += 1) {
    const params: Record<string, string | number> = {
      sort: 'dueDate',
      order: 'asc',
      dueFrom: from,
      dueBefore: before,
      limit: PAGE_SIZE,
    };
    if (cursor) params.cursor = cursor;
    const { data }: { data: TaskListResponse } = await api.get<TaskListResponse>('/api/tasks', {
      params,
    });
    tasks.push(...data.tasks);
    if (!data.nextCursor) return { tasks, truncated: false };
    if (pages >= MAX_PAGES) return { tasks, truncated: true };
    cursor = data.nextCursor;
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
