import { QueryClient } from '@tanstack/react-query';
import { statusOf } from './api-client';

/** No retry of a 4xx (it would fail the same way); one retry of anything else. */
export function retryOnceUnlessClientError(failureCount: number, error: unknown): boolean {
  const status = statusOf(error);
  if (status !== undefined && status < 500) return false;
  return failureCount < 1;
}

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: retryOnceUnlessClientError,
      },
    },
  });
}
