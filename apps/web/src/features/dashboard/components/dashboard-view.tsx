import type { DashboardResponse } from '@task-manager/shared';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { ErrorState } from '../../../components/ui/feedback';
import { taskPathFor } from '../../../config/paths';
import { useT } from '../../../lib/i18n';
import { useSession } from '../../../lib/session';
import { DashboardGreeting } from './dashboard-greeting';
import { DashboardSkeleton } from './dashboard-skeleton';
import { PriorityBarChart } from './priority-bar-chart';
import { RecentTasksTable } from './recent-tasks-table';
import { StatCards } from './stat-cards';
import { StatusDonutChart } from './status-donut-chart';

/**
 * One dashboard for both roles: the greeting at once, then skeletons, the error with Retry (the
 * query has already retried once), or the figures. Data kept from an earlier load stays shown
 * when a later refresh fails.
 */
export function DashboardView({
  query,
  seeAllPath,
  children,
}: {
  query: Pick<UseQueryResult<DashboardResponse>, 'data' | 'isError' | 'refetch'>;
  seeAllPath: string;
  /** More sections under the figures (the admin's team activity). */
  children?: ReactNode;
}) {
  const t = useT();
  const { user } = useSession();
  const navigate = useNavigate();
  const { data } = query;
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-5">
      <DashboardGreeting name={user?.name ?? ''} />
      {data ? (
        <>
          <StatCards
            statistics={data.statistics}
            overduePath={`${seeAllPath}?due=overdue`}
            listPath={seeAllPath}
          />
          <div className="grid gap-5 lg:grid-cols-2">
            <StatusDonutChart
              distribution={data.charts.taskDistribution}
              onSelect={(status) =>
                void navigate(`${seeAllPath}?status=${encodeURIComponent(status)}`)
              }
            />
            <PriorityBarChart
              levels={data.charts.taskPriorityLevels}
              onSelect={(priority) =>
                void navigate(`${seeAllPath}?priority=${encodeURIComponent(priority)}`)
              }
            />
          </div>
          <RecentTasksTable
            tasks={data.recentTasks}
            seeAllPath={seeAllPath}
            taskPath={(id) => taskPathFor(user?.role, id)}
          />
          {children}
        </>
      ) : query.isError ? (
        <ErrorState message={t('dashboard.loadFailed')} onRetry={() => void query.refetch()} />
      ) : (
        <DashboardSkeleton />
      )}
    </div>
  );
}
