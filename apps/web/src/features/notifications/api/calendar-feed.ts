import type { CalendarFeed, CalendarScope } from '@task-manager/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** The person's secret calendar address (iCalendar) and whose tasks it holds. */
export async function getCalendarFeed(): Promise<CalendarFeed> {
  const { data } = await api.get<CalendarFeed>('/api/calendar/feed');
  return data;
}

export function useCalendarFeed() {
  return useQuery({ queryKey: queryKeys.calendarFeed, queryFn: getCalendarFeed });
}

/** A new secret address: the old one stops working at once. */
export async function rotateCalendarFeed(): Promise<CalendarFeed> {
  const { data } = await api.post<CalendarFeed>('/api/calendar/feed/rotate');
  return data;
}

/** Admins choose whether the feed holds their own tasks or every task. */
export async function updateCalendarScope(scope: CalendarScope): Promise<CalendarFeed> {
  const { data } = await api.put<CalendarFeed>('/api/calendar/feed', { scope });
  return data;
}

function useFeedMutation<Input>(change: (input: Input) => Promise<CalendarFeed>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: (feed) => queryClient.setQueryData(queryKeys.calendarFeed, feed),
  });
}

export function useRotateCalendarFeed() {
  return useFeedMutation<void>(() => rotateCalendarFeed());
}

export function useUpdateCalendarScope() {
  return useFeedMutation(updateCalendarScope);
}
