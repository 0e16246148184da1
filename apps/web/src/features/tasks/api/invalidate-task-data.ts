import { hashKey, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { taskKeys } from './task-keys';

/**
 * Roots of the other features' keys that show task numbers: the dashboards' charts and the team
 * members' counts. Features do not import each other, so the roots are named here.
 */
const DASHBOARD_KEY = ['dashboard'] as const;
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
    queryClient.invalidateQueries({ queryKey: DASHBOARD_KEY }),
    queryClient.invalidateQueries({ queryKey: USERS_KEY }),
  ]);
}
