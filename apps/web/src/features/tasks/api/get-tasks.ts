import type { TaskListResponse, TaskStatus } from '@task-manager/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { retryOnceUnlessClientError } from '../../../lib/query-client';
import { taskKeys } from './task-keys';

/** A tab of the task list: every task, or the tasks of one status. */
export type TaskStatusFilter = 'All' | TaskStatus;

/** The tasks the caller can see, filtered by status (left out for All), with counts per status. */
export async function getTasks(status: TaskStatusFilter): Promise<TaskListResponse> {
  const params = status === 'All' ? undefined : { status };
  const { data } = await api.get<TaskListResponse>('/api/tasks', { params });
  return data;
}

export function tasksQueryOptions(status: TaskStatusFilter) {
  return queryOptions({
    queryKey: taskKeys.list(status === 'All' ? undefined : status),
    queryFn: () => getTasks(status),
  });
}

export interface TaskListRetry {
  /** How long to wait before the one retry; null for no retry at all. */
  retryDelayMs: number | null;
}

/**
 * The list for one tab. While another tab's list loads, the previous list stays on screen
 * (placeholderData) so the grid does not flash empty on every tab change.
 */
export function useTasks(status: TaskStatusFilter, { retryDelayMs }: TaskListRetry) {
  return useQuery({
    ...tasksQueryOptions(status),
    placeholderData: keepPreviousData,
    // A 4xx fails the same way twice (and a 401 already ends the session): retry the rest once.
    retry: retryDelayMs === null ? false : retryOnceUnlessClientError,
    retryDelay: retryDelayMs ?? 0,
  });
}
