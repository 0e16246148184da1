import { hashKey, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { taskKeys } from './task-keys';

/**
 * The root of the team members' keys, whose task counts change with the tasks. Features do not
 * import each other, so the root is named here. The dashboards need no entry: their keys sit
 * under ['tasks'] (dashboard-keys.ts), so `taskKeys.all` covers them.
 */
const USERS_KEY = ['users'] as const;

/**
 * After any task change: every task query, the dashboards and the team counts go stale.
 * `except` leaves one query alone, e.g. a deleted task, which would only refetch as a 404.
 */
export function invalidateTaskData(queryClient: QueryClient, except?: QueryKey) {
  const skipped = except ? hashKey(except) : undefined;
  return Promise.all([
    queryClient.invalidateQueries({
      queryKey: taskKeys.all,
      predicate: (query) => query.queryHash !== skipped,
    }),
    queryClient.invalidateQueries({ queryKey: USERS_KEY }),
  ]);
}
