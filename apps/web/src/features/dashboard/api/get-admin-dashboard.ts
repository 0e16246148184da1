import type { DashboardResponse } from '@task-manager/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type RequestOptions } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** Statistics, chart data and the newest tasks over every task (admin only). */
export async function getAdminDashboard(options?: RequestOptions): Promise<DashboardResponse> {
  const { data } = await api.get<DashboardResponse>('/api/tasks/dashboard-data', options);
  return data;
}

/** Spec section 4: a failed load is retried once after 1.5 s; then the page offers Retry. */
export const ADMIN_DASHBOARD_RETRY_DELAY_MS = 1500;

export function adminDashboardQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.dashboard.admin(),
    queryFn: getAdminDashboard,
    retry: 1,
    retryDelay: ADMIN_DASHBOARD_RETRY_DELAY_MS,
  });
}

export function useAdminDashboard() {
  return useQuery(adminDashboardQueryOptions());
}
