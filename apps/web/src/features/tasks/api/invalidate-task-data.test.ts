import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { invalidateTaskData } from './invalidate-task-data';
import { taskKeys } from './task-keys';

const threePages = { pages: ['page 1', 'page 2', 'page 3'], pageParams: [null, 'c1', 'c2'] };

describe('invalidateTaskData', () => {
  it('cuts the paged lists to their first page and marks every task and user query stale', async () => {
    const queryClient = new QueryClient();
    const detail = taskKeys.detail('t1');
    queryClient.setQueryData(taskKeys.list(undefined), threePages);
    queryClient.setQueryData(taskKeys.list('Pending'), threePages);
    queryClient.setQueryData(['users', 'list', ''], threePages);
    queryClient.setQueryData(detail, { title: 'A task' });

    await invalidateTaskData(queryClient);

    for (const key of [taskKeys.list(undefined), taskKeys.list('Pending'), ['users', 'list', '']]) {
      // A refetch then asks for one page, not all three.
      expect(queryClient.getQueryData(key)).toEqual({ pages: ['page 1'], pageParams: [null] });
      expect(queryClient.getQueryState(key)?.isInvalidated).toBe(true);
    }
    expect(queryClient.getQueryData(detail)).toEqual({ title: 'A task' });
    expect(queryClient.getQueryState(detail)?.isInvalidated).toBe(true);
  });

  it('leaves the excepted query alone', async () => {
    const queryClient = new QueryClient();
    const deleted = taskKeys.detail('gone');
    queryClient.setQueryData(deleted, { title: 'Deleted' });
    await invalidateTaskData(queryClient, deleted);
    expect(queryClient.getQueryState(deleted)?.isInvalidated).toBe(false);
  });
});
