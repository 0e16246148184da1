import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * Live updates refetch the count at once; without the stream (an older API, a proxy that buffers
 * it) it is still asked for every minute.
 */
const UNREAD_COUNT_POLL_MS = 60_000;

export async function getUnreadCount(): Promise<number> {
  const { data } = await api.get<{ count: number }>('/api/notifications/unread-count');
  return data.count;
}

export function unreadCountQueryOptions() {
  return queryOptions({ queryKey: queryKeys.notifications.unreadCount(), queryFn: getUnreadCount });
}

export function useUnreadCount() {
  return useQuery({
    ...unreadCountQueryOptions(),
    refetchInterval: UNREAD_COUNT_POLL_MS,
    refetchIntervalInBackground: false,
  });
}
