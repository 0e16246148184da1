import type { MarkNotificationsReadInput } from '@task-manager/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** Marks some notifications (`ids`) or all of them read; answers how many changed. */
export async function markNotificationsRead(input: MarkNotificationsReadInput): Promise<number> {
  const { data } = await api.post<{ count: number }>('/api/notifications/read', input);
  return data.count;
}

export function useMarkNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markNotificationsRead,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.notifications.all }),
  });
}
