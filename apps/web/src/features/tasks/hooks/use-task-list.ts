import { useEffect, useMemo, useState } from 'react';
import toast from 'react-hot-toast';
import { uniqueById } from '../../../lib/infinite-paging';
import { useTasks, type TaskStatusFilter } from '../api/get-tasks';
import { useDebouncedValue } from './use-debounced-value';

export const TASKS_FETCH_FAILED = 'Failed to fetch tasks. Please try again.';

/**
 * The task list's state: the selected tab at once, the pages of the tab the person settled on
 * (`debounceMs` after the last change), and one toast when the list finally fails to load.
 */
export function useTaskList({
  debounceMs,
  retryDelayMs,
}: {
  debounceMs: number;
  retryDelayMs: number | null;
}) {
  const [status, setStatus] = useState<TaskStatusFilter>('All');
  const queriedStatus = useDebouncedValue(status, debounceMs);
  const query = useTasks(queriedStatus, { retryDelayMs });

  const { isError, errorUpdatedAt } = query;
  useEffect(() => {
    // One id: a failure seen again (a retry from the error state) replaces the toast, not stacks.
    if (isError) toast.error(TASKS_FETCH_FAILED, { id: 'tasks-fetch-failed' });
  }, [isError, errorUpdatedAt]);

  const pages = query.data?.pages;
  const tasks = useMemo(
    () => (pages ? uniqueById(pages.map((page) => page.tasks)) : undefined),
    [pages],
  );

  return {
    status,
    setStatus,
    query,
    /** Every loaded task of the list on screen, in order; undefined until the first page. */
    tasks,
    /** The counts of every status, from the first page: they do not depend on the page. */
    summary: pages?.[0]?.statusSummary,
    /** The tab the list on screen belongs to, once it is not a placeholder. */
    queriedStatus,
    /** The list on screen is not (yet) the selected tab's. */
    isUpdating: status !== queriedStatus || query.isPlaceholderData,
  };
}
