import type { TaskCardListResponse, TaskStatus } from '@task-manager/shared';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { retryOnceUnlessClientError } from '../../../lib/query-client';
import { queryKeys } from '../../../lib/query-keys';
import { apiParams, filterParams, type TaskFilters } from '../task-filters';

/** A tab of the task list: every task, or the tasks of one status. */
export type TaskStatusFilter = 'All' | TaskStatus;

/** Tasks per page: a few screens of cards, so scrolling rarely waits for the next page. */
export const TASK_PAGE_SIZE = 100;

/**
 * One page of the tasks the caller can see that match `filters` (the status tab, search, people,
 * priority, labels, due window, sort), with the counts per status of the same filters whatever
 * the tab, as cards (`view=card`: the checklist's done/total instead of its texts). `cursor` is
 * the previous page's `nextCursor`; the first page has none.
 */
export async function getTaskPage(
  filters: TaskFilters,
  cursor: string | null,
): Promise<TaskCardListResponse> {
  const params: Record<string, string | number> = {
    view: 'card',
    limit: TASK_PAGE_SIZE,
    ...apiParams(filters),
  };
  if (cursor) params.cursor = cursor;
  const { data } = await api.get<TaskCardListResponse>('/api/tasks', { params });
  return data;
}

export function tasksQueryOptions(filters: TaskFilters) {
  // The tab is the key's own part; the other parameters follow it.
  const rest = filterParams({ ...filters, status: 'All' });
  return infiniteQueryOptions({
    queryKey: queryKeys.tasks.list(filters.status === 'All' ? undefined : filters.status, rest),
    queryFn: ({ pageParam }) => getTaskPage(filters, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
}

export interface TaskListRetry {
  /** How long to wait before the one retry; null for no retry at all. */
  retryDelayMs: number | null;
}

/**
 * The pages of one view's list. While another tab's list loads, the previous list stays on screen
 * (placeholderData) so the grid does not flash empty on every tab change.
 */
export function useTasks(filters: TaskFilters, { retryDelayMs }: TaskListRetry) {
  return useInfiniteQuery({
    ...tasksQueryOptions(filters),
    placeholderData: keepPreviousData,
    // A 4xx fails the same way twice (and a 401 already ends the session): retry the rest once.
    retry: retryDelayMs === null ? false : retryOnceUnlessClientError,
    retryDelay: retryDelayMs ?? 0,
  });
}
