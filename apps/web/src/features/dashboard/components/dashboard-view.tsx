import type { DashboardResponse } from '@task-manager/shared';
import type { UseQueryResult } from '@tanstack/react-query';
import { ErrorState } from '../../../components/ui/feedback';
import { useSession } from '../../../lib/session';
import { DashboardGreeting } from './dashboard-greeting';
import { DashboardSkeleton } from './dashboard-skeleton';
import { PriorityBarChart } from './priority-bar-chart';
import { RecentTasksTable } from './recent-tasks-table';
import { StatCards } from './stat-cards';
import { StatusDonutChart } from './status-donut-chart';

export const DASHBOARD_LOAD_FAILED = 'Failed to load the dashboard. Please try again.';

/**
 * One dashboard for both roles: the greeting at once, then skeletons, the error with Retry (the
 * query has already retried once), or the figures. Data kept from an earlier load stays shown
 * when a later refresh fails.
 */
export function DashboardView({
  query,
  seeAllPath,
}: {
  query: Pick<UseQueryResult<DashboardResponse>, 'data' | 'isError' | 'refetch'>;
  seeAllPath: string;
}) {
  const { user } = useSession();
  const { data } = query;
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-5">
      <DashboardGreeting name={user?.name ?? ''} />
      {data ? (
        <>
          <StatCards statistics={data.statistics} />
          <div className="grid gap-5 lg:grid-cols-2">
            <StatusDonutChart distribution={data.charts.taskDistribution} />
            <PriorityBarChart levels={data.charts.taskPriorityLevels} />
          </div>
          <RecentTasksTable tasks={data.recentTasks} seeAllPath={seeAllPath} />
        </>
      ) : query.isError ? (
        <ErrorState message={DASHBOARD_LOAD_FAILED} onRetry={() => void query.refetch()} />
      ) : (
        <DashboardSkeleton />
      )}
    </div>
  );
}
