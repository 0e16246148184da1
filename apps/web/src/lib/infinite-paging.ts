import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';

/** What a paged list on screen needs from its infinite query to load the next page. */
export interface Paging {
  /** There is a next page, and nothing is being fetched or has just failed. */
  canLoadMore: boolean;
  loadingMore: boolean;
  loadMoreFailed: boolean;
  onLoadMore: () => void;
}

export function pagingOf<TPage>(
  query: UseInfiniteQueryResult<InfiniteData<TPage>, unknown>,
): Paging {
  return {
    // While the pages already shown are refetched, a next page waits for their cursors.
    canLoadMore: query.hasNextPage && !query.isFetching && !query.isFetchNextPageError,
    loadingMore: query.isFetchingNextPage,
    loadMoreFailed: query.isFetchNextPageError,
    // cancelRefetch off: a second call while a page is on its way joins it instead of restarting.
    onLoadMore: () => void query.fetchNextPage({ cancelRefetch: false }),
  };
}

/**
 * The loaded pages as one list. An item shows once even if two pages both hold it (a page asked
 * for again after a change can overlap the next one), since lists key their rows by id.
 */
export function uniqueById<T extends { _id: string }>(pages: readonly (readonly T[])[]): T[] {
  const seen = new Set<string>();
  const items: T[] = [];
  for (const page of pages) {
    for (const item of page) {
      if (seen.has(item._id)) continue;
      seen.add(item._id);
      items.push(item);
    }
  }
  return items;
}
