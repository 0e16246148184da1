import { NEXT_CURSOR_HEADER, type Activity } from '@task-manager/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** The API's largest page, and how many pages at most: a task's history is rarely longer. */
const PAGE_LIMIT = 500;
const MAX_PAGES = 10;

/**
 * A task's whole history (oldest first), for what the checklist needs from it (who added and
 * who ticked an item). Its key sits under the timeline's, so whatever refreshes the timeline
 * refreshes it too.
 */
export async function getTaskHistory(taskId: string): Promise<Activity[]> {
  const url = `/api/tasks/${encodeURIComponent(taskId)}/activity`;
  const history: Activity[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const response = await api.get<Activity[]>(url, {
      params: { limit: PAGE_LIMIT, ...(cursor && { cursor }) },
    });
    history.push(...response.data);
    cursor = response.headers[NEXT_CURSOR_HEADER.toLowerCase()] as string | undefined;
    if (!cursor) break;
  }
  return history;
}

export function taskHistoryQueryOptions(taskId: string) {
  return queryOptions({
    queryKey: [...queryKeys.tasks.activity(taskId), 'whole'] as const,
    queryFn: () => getTaskHistory(taskId),
  });
}

/** `enabled` false: not (or no longer) asked for, e.g. once the task is deleted. */
export function useTaskHistory(taskId: string, enabled = true) {
  return useQuery({ ...taskHistoryQueryOptions(taskId), enabled });
}
