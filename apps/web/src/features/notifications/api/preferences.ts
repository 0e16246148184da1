import type {
  NotificationPreferences,
  UpdateNotificationPreferencesInput,
} from '@task-manager/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** Which kinds of notification the person wants by e-mail, and whether this server sends any. */
export async function getNotificationPreferences(): Promise<NotificationPreferences> {
  const { data } = await api.get<NotificationPreferences>('/api/notifications/preferences');
  return data;
}

export function useNotificationPreferences() {
  return useQuery({
    queryKey: queryKeys.notificationPreferences,
    queryFn: getNotificationPreferences,
  });
}

export async function updateNotificationPreferences(
  input: UpdateNotificationPreferencesInput,
): Promise<NotificationPreferences> {
  const { data } = await api.put<NotificationPreferences>('/api/notifications/preferences', input);
  return data;
}

export function useUpdateNotificationPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateNotificationPreferences,
    onSuccess: (preferences) =>
      queryClient.setQueryData(queryKeys.notificationPreferences, preferences),
  });
}
