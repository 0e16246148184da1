import type { Task } from '@task-manager/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export async function getTask(id: string): Promise<Task> {
  const { data } = await api.get<Task>(`/api/tasks/${encodeURIComponent(id)}`);
  return data;
}

export function taskQueryOptions(id: string) {
  return queryOptions({ queryKey: queryKeys.tasks.detail(id), queryFn: () => getTask(id) });
}

/** One task; `enabled: false` stops fetching it (what it holds stays), e.g. once deleted here. */
export function useTask(id: string | undefined, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...taskQueryOptions(id ?? ''), enabled: !!id && enabled });
}
