import type { TaskCardListResponse, TaskMutationResponse, TaskStatus } from '@task-manager/shared';
import {
  infiniteQueryOptions,
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
} from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** Cards per column page: a column loads more on request. */
export const BOARD_PAGE_SIZE = 50;

/**
 * The task list's parameters that narrow every column (search, people, priority, labels, due
 * window and its time zone, sort), as GET /api/tasks takes them; none for the whole board.
 */
export type BoardFilterParams = Readonly<Record<string, string>>;

/** One page of a column: the caller's tasks of one status that match `filters`, as cards. */
export async function getColumnPage(
  status: TaskStatus,
  filters: BoardFilterParams,
  cursor: string | null,
): Promise<TaskCardListResponse> {
  const params: Record<string, string | number> = {
    ...filters,
    view: 'card',
    status,
    limit: BOARD_PAGE_SIZE,
  };
  if (cursor) params.cursor = cursor;
  const { data } = await api.get<TaskCardListResponse>('/api/tasks', { params });
  return data;
}

export function boardColumnQueryOptions(status: TaskStatus, filters: BoardFilterParams = {}) {
  return infiniteQueryOptions({
    queryKey: queryKeys.tasks.list(status, { ...filters, view: 'board' }),
    queryFn: ({ pageParam }) => getColumnPage(status, filters, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
}

export function useBoardColumn(status: TaskStatus, filters: BoardFilterParams) {
  // A new filter keeps the column's cards on screen until its own arrive.
  return useInfiniteQuery({
    ...boardColumnQueryOptions(status, filters),
    placeholderData: keepPreviousData,
  });
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
