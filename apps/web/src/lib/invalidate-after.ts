import { hashKey, type InfiniteData, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { staleAfter, type DataChange } from './query-keys';

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
 * After a change, every query it makes stale (the `staleAfter` table) is marked so, and the
 * ones on screen are fetched again. `except` leaves one query alone, e.g. a deleted task, which
 * would only refetch as a 404.
 */
export function invalidateAfter(
  queryClient: QueryClient,
  change: DataChange,
  { except }: { except?: QueryKey } = {},
) {
  const skipped = except ? hashKey(except) : undefined;
  return Promise.all(
    staleAfter[change].map((queryKey) => {
      keepFirstPageOnly(queryClient, queryKey);
      return queryClient.invalidateQueries({
        queryKey,
        predicate: (query) => query.queryHash !== skipped,
      });
    }),
  );
}
