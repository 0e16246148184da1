import type { TaskListResponse } from '@task-manager/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** Tasks the palette offers for what is typed. */
export const PALETTE_TASK_LIMIT = 8;

/** GET /api/tasks?q=...: the caller's tasks matching every word (prefixes too). */
export async function searchTasks(q: string) {
  const { data } = await api.get<TaskListResponse>('/api/tasks', {
    params: { q, limit: PALETTE_TASK_LIMIT },
  });
  return data.tasks;
}

export function taskSearchQueryOptions(q: string) {
  return queryOptions({
    queryKey: queryKeys.tasks.search(q),
    queryFn: () => searchTasks(q),
    staleTime: 30_000,
  });
}

export function useTaskSearch(q: string) {
  return useQuery({
    ...taskSearchQueryOptions(q),
    enabled: q.trim().length > 0,
    placeholderData: keepPreviousData,
  });
}
