import type { TaskCardListResponse, TaskMutationResponse, TaskStatus } from '@task-manager/shared';
import { infiniteQueryOptions, useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** Cards per column page: a column loads more on request. */
export const BOARD_PAGE_SIZE = 50;

/** One page of a column: the caller's tasks of one status, newest first, as cards. */
export async function getColumnPage(
  status: TaskStatus,
  cursor: string | null,
): Promise<TaskCardListResponse> {
  const params: Record<string, string | number> = {
    view: 'card',
    status,
    limit: BOARD_PAGE_SIZE,
  };
  if (cursor) params.cursor = cursor;
  const { data } = await api.get<TaskCardListResponse>('/api/tasks', { params });
  return data;
}

export function boardColumnQueryOptions(status: TaskStatus) {
  return infiniteQueryOptions({
    queryKey: queryKeys.tasks.list(status, { view: 'board' }),
    queryFn: ({ pageParam }) => getColumnPage(status, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
}

export function useBoardColumn(status: TaskStatus) {
  return useInfiniteQuery(boardColumnQueryOptions(status));
}

/** PUT /api/tasks/:id/status: the checklist moves with the status (decisions 003 and 007). */
export async function moveTask({
  id,
  status,
}: {
  id: string;
  status: TaskStatus;
}): Promise<TaskMutationResponse> {
  const { data } = await api.put<TaskMutationResponse>(
    `/api/tasks/${encodeURIComponent(id)}/status`,
    { status },
  );
  return data;
}

export function useMoveTask() {
  return useMutation({ mutationFn: moveTask });
}
