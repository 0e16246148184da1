import type { UserWithTaskCounts } from '@task-manager/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const userKeys = {
  all: ['users'] as const,
  list: () => [...userKeys.all, 'list'] as const,
};

/** Every member with their task counts (admin only). */
export async function getUsers(): Promise<UserWithTaskCounts[]> {
  const { data } = await api.get<UserWithTaskCounts[]>('/api/users');
  return data;
}

export function usersQueryOptions() {
  return queryOptions({ queryKey: userKeys.list(), queryFn: getUsers });
}

export function useUsers() {
  return useQuery(usersQueryOptions());
}
