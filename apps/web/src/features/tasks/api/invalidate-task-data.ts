import { hashKey, type InfiniteData, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { taskKeys } from './task-keys';

/**
 * The root of the team members' keys, whose task counts change with the tasks. Features do not
 * import each other, so the root is named here. The dashboards need no entry: their keys sit
 * under ['tasks'] (dashboard-keys.ts), so `taskKeys.all` covers them.
 */
const USERS_KEY = ['users'] as const;

function isInfiniteData(data: unknown): data is InfiniteData<unknown, unknown> {
  return typeof data === 'object' && data !== null && 'pages' in data && 'pageParams' in data;
}

/**
 * Paged lists (task tabs, team members) keep only their first page: refetching every page
 * scrolled through would mean one request per page, in sequence, for lists of thousands. The
 * rest loads again as the person scrolls.
 */
function keepFirstPageOnly(queryClient: QueryClient, queryKey: QueryKey) {
  queryClient.setQueriesData<unknown>({ queryKey }, (data: unknown) =>
    isInfiniteData(data) && data.pages.length > 1
      ? { pages: data.pages.slice(0, 1), pageParams: data.pageParams.slice(0, 1) }
      : data,
  );
}

/**
 * After any task change: every task query, the dashboards and the team counts go stale.
 * `except` leaves one query alone, e.g. a deleted task, which would only refetch as a 404.
 */
export function invalidateTaskData(queryClient: QueryClient, except?: QueryKey) {
  const skipped = except ? hashKey(except) : undefined;
  keepFirstPageOnly(queryClient, taskKeys.lists());
  keepFirstPageOnly(queryClient, USERS_KEY);
  return Promise.all([
    queryClient.invalidateQueries({
      queryKey: taskKeys.all,
      predicate: (query) => query.queryHash !== skipped,
    }),
    queryClient.invalidateQueries({ queryKey: USERS_KEY }),
  ]);
}
