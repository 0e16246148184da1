import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { existingLabelIds, useLabels } from '../../../lib/get-labels';
import { useT } from '../../../lib/i18n';
import { uniqueById } from '../../../lib/infinite-paging';
import { useTasks, type TaskStatusFilter } from '../api/get-tasks';
import {
  filtersFromSearch,
  isFiltered,
  searchFromFilters,
  type TaskFilters,
} from '../task-filters';
import { useDebouncedValue } from './use-debounced-value';
import toast from 'react-hot-toast';
import { notify } from '../../../lib/notify';

export const TASKS_FETCH_FAILED = 'Failed to fetch tasks. Please try again.';

/**
 * The view a task page shows, kept in the URL's query string: a change is a new history entry,
 * so the back button and a shared link bring the same view back. `filters` is the URL's, at
 * once; `queriedFilters` the one the person settled on (`debounceMs` after the last change), with
 * only labels that still exist (a link may name one deleted since: the API would refuse it), and
 * the URL drops the missing ones, saying so. Used by the task lists and the board.
 */
export function useTaskView({ debounceMs }: { debounceMs: number }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const search = searchParams.toString();
  const filters = useMemo(() => filtersFromSearch(new URLSearchParams(search)), [search]);
  const settledSearch = useDebouncedValue(search, debounceMs);
  const labels = useLabels();
  const knownLabels = labels.data;
  const queriedFilters = useMemo(() => {
    const settled = filtersFromSearch(new URLSearchParams(settledSearch));
    return { ...settled, label: existingLabelIds(settled.label, knownLabels) };
  }, [settledSearch, knownLabels]);
  const t = useT();
  useEffect(() => {
    const kept = existingLabelIds(filters.label, knownLabels);
    if (kept.length === filters.label.length) return;
    toast(t('filters.labelGone'), { id: 'label-gone' });
    // In place: Back does not bring them again.
    setSearchParams(new URLSearchParams(searchFromFilters({ ...filters, label: kept })), {
      replace: true,
    });
  }, [knownLabels, filters, setSearchParams, t]);

  const setFilters = useCallback(
    (change: Partial<TaskFilters>) => {
      const next = { ...filtersFromSearch(searchParams), ...change };
      const nextSearch = searchFromFilters(next);
      if (nextSearch.slice(1) === searchParams.toString()) return;
      setSearchParams(new URLSearchParams(nextSearch));
    },
    [searchParams, setSearchParams],
  );
  return {
    filters,
    setFilters,
    queriedFilters,
    /** The view on screen is not (yet) the one in the URL. */
    settling: search !== settledSearch,
  };
}

/**
 * The task list's state: its view (useTaskView), the pages of the settled view, the tab shown as
 * selected at once, and one toast when the list finally fails to load.
 */
export function useTaskList({
  debounceMs,
  retryDelayMs,
}: {
  debounceMs: number;
  retryDelayMs: number | null;
}) {
  const { filters, setFilters, queriedFilters, settling } = useTaskView({ debounceMs });
  const query = useTasks(queriedFilters, { retryDelayMs });

  const { isError, errorUpdatedAt } = query;
  useEffect(() => {
    // One id: a failure seen again (a retry from the error state) replaces the toast, not stacks.
    if (isError) notify('error', TASKS_FETCH_FAILED, { id: 'tasks-fetch-failed' });
  }, [isError, errorUpdatedAt]);

  // The tab shows as selected at once, before the navigation to its URL has rendered; the URL
  // wins again whenever it changes (back button, a link).
  const [shownStatus, setShownStatus] = useState(filters.status);
  const [urlStatus, setUrlStatus] = useState(filters.status);
  if (urlStatus !== filters.status) {
    setUrlStatus(filters.status);
    setShownStatus(filters.status);
  }
  const setStatus = useCallback(
    (status: TaskStatusFilter) => {
      setShownStatus(status);
      setFilters({ status });
    },
    [setFilters],
  );

  const pages = query.data?.pages;
  const tasks = useMemo(
    () => (pages ? uniqueById(pages.map((page) => page.tasks)) : undefined),
    [pages],
  );

  return {
    status: shownStatus,
    setStatus,
    /** The view asked for (the URL's), and a change to it. */
    filters,
    setFilters,
    /** Anything beyond the tab narrows the list: "no tasks" then means "none match". */
    filtered: isFiltered(queriedFilters),
    query,
    /** Every loaded task of the list on screen, in order; undefined until the first page. */
    tasks,
    /** The counts of every status, from the first page: they do not depend on the page. */
    summary: pages?.[0]?.statusSummary,
    /** The tab the list on screen belongs to, once it is not a placeholder. */
    queriedStatus: queriedFilters.status,
    /** The list on screen is not (yet) the selected view's. */
    isUpdating: settling || query.isPlaceholderData,
  };
}
