import type { NotificationPage } from '@task-manager/shared';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** Notifications per page of the bell's list: a screenful. */
export const NOTIFICATION_PAGE_SIZE = 20;

/** One page of the signed-in person's notifications, newest first. */
export async function getNotificationPage(
  unreadOnly: boolean,
  cursor: string | null,
): Promise<NotificationPage> {
  const params: Record<string, string | number> = { limit: NOTIFICATION_PAGE_SIZE };
  if (unreadOnly) params.unread = 'true';
  if (cursor) params.cursor = cursor;
  const { data } = await api.get<NotificationPage>('/api/notifications', { params });
  return data;
}

export function notificationsQueryOptions(unreadOnly: boolean) {
  return infiniteQueryOptions({
    queryKey: queryKeys.notifications.list(unreadOnly),
    queryFn: ({ pageParam }) => getNotificationPage(unreadOnly, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
}

/** The list of the open bell panel; loaded only while the panel is open (`enabled`). */
export function useNotifications(unreadOnly: boolean, enabled: boolean) {
  return useInfiniteQuery({ ...notificationsQueryOptions(unreadOnly), enabled });
}
