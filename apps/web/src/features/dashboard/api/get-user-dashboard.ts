import type { DashboardResponse } from '@task-manager/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type RequestOptions } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** The same figures as the admin dashboard, over the tasks assigned to the signed-in member. */
export async function getUserDashboard(options?: RequestOptions): Promise<DashboardResponse> {
  const { data } = await api.get<DashboardResponse>('/api/tasks/user-dashboard-data', options);
  return data;
}

/** Spec section 4: a failed load is retried once, at once; then the page offers Retry. */
export function userDashboardQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.dashboard.user(),
    queryFn: getUserDashboard,
    retry: 1,
    retryDelay: 0,
  });
}

export function useUserDashboard() {
  return useQuery(userDashboardQueryOptions());
}
