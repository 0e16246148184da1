import type { TaskListResponse, TaskStatus } from '@task-manager/shared';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { retryOnceUnlessClientError } from '../../../lib/query-client';
import { queryKeys } from '../../../lib/query-keys';

/** A tab of the task list: every task, or the tasks of one status. */
export type TaskStatusFilter = 'All' | TaskStatus;

/** Tasks per page: a few screens of cards, so scrolling rarely waits for the next page. */
export const TASK_PAGE_SIZE = 100;

/**
 * One page of the tasks the caller can see, newest first, filtered by status (left out for All),
 * with the counts per status of every task whatever the filter. `cursor` is the previous page's
 * `nextCursor`; the first page has none.
 */
export async function getTaskPage(
  status: TaskStatusFilter,
  cursor: string | null,
): Promise<TaskListResponse> {
  const params: Record<string, string | number> = { limit: TASK_PAGE_SIZE };
  if (status !== 'All') params.status = status;
  if (cursor) params.cursor = cursor;
  const { data } = await api.get<TaskListResponse>('/api/tasks', { params });
  return data;
}

export function tasksQueryOptions(status: TaskStatusFilter) {
  return infiniteQueryOptions({
    queryKey: queryKeys.tasks.list(status === 'All' ? undefined : status),
    queryFn: ({ pageParam }) => getTaskPage(status, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
}

export interface TaskListRetry {
  /** How long to wait before the one retry; null for no retry at all. */
  retryDelayMs: number | null;
}

/**
 * The pages of one tab's list. While another tab's list loads, the previous list stays on screen
 * (placeholderData) so the grid does not flash empty on every tab change.
 */
export function useTasks(status: TaskStatusFilter, { retryDelayMs }: TaskListRetry) {
  return useInfiniteQuery({
    ...tasksQueryOptions(status),
    placeholderData: keepPreviousData,
    // A 4xx fails the same way twice (and a 401 already ends the session): retry the rest once.
    retry: retryDelayMs === null ? false : retryOnceUnlessClientError,
    retryDelay: retryDelayMs ?? 0,
  });
}
