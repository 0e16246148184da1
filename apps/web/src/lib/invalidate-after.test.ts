import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { invalidateAfter } from './invalidate-after';
import { queryKeys } from './query-keys';

const threePages = { pages: ['page 1', 'page 2', 'page 3'], pageParams: [null, 'c1', 'c2'] };

describe('invalidateAfter a task change', () => {
  it('cuts the paged lists to their first page and marks every task, dashboard and user query stale', async () => {
    const queryClient = new QueryClient();
    const pagedLists = [
      queryKeys.tasks.list(undefined),
      queryKeys.tasks.list('Pending'),
      queryKeys.users.list(''),
    ];
    for (const key of pagedLists) queryClient.setQueryData(key, threePages);
    const detail = queryKeys.tasks.detail('t1');
    queryClient.setQueryData(detail, { title: 'A task' });
    queryClient.setQueryData(queryKeys.dashboard.admin(), { statistics: {} });
    queryClient.setQueryData(queryKeys.profile, { name: 'Ada' });

    await invalidateAfter(queryClient, 'taskChange');

    for (const key of pagedLists) {
      // A refetch then asks for one page, not all three.
      expect(queryClient.getQueryData(key)).toEqual({ pages: ['page 1'], pageParams: [null] });
      expect(queryClient.getQueryState(key)?.isInvalidated).toBe(true);
    }
    expect(queryClient.getQueryData(detail)).toEqual({ title: 'A task' });
    expect(queryClient.getQueryState(detail)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(queryKeys.dashboard.admin())?.isInvalidated).toBe(true);
    // The session is not task data.
    expect(queryClient.getQueryState(queryKeys.profile)?.isInvalidated).toBe(false);
  });

  it('leaves the excepted query alone', async () => {
    const queryClient = new QueryClient();
    const deleted = queryKeys.tasks.detail('gone');
    queryClient.setQueryData(deleted, { title: 'Deleted' });
    await invalidateAfter(queryClient, 'taskChange', { except: deleted });
    expect(queryClient.getQueryState(deleted)?.isInvalidated).toBe(false);
  });
});
