import type { Activity } from '@task-manager/shared';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { ErrorState, Skeleton } from '../../../components/ui/feedback';
import { paths } from '../../../config/paths';
import { api } from '../../../lib/api-client';
import { describeActivity } from '../../../lib/describe-activity';
import { useT } from '../../../lib/i18n';
import { queryKeys } from '../../../lib/query-keys';

/** How many of the team's latest changes the admin dashboard shows. */
const SHOWN = 10;

async function getTeamActivity(): Promise<Activity[]> {
  const { data } = await api.get<Activity[]>('/api/activity', { params: { limit: SHOWN } });
  return data;
}

/** The admin dashboard's "Recent activity": the team's latest changes across tasks. */
export function TeamActivity() {
  const t = useT();
  const query = useQuery({ queryKey: queryKeys.activity, queryFn: getTeamActivity });
  return (
    <section
      aria-labelledby="team-activity-heading"
      className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-5"
    >
      <h2 id="team-activity-heading" className="text-base font-semibold text-slate-900">
        {t('timeline.recentActivity')}
      </h2>
      {query.data ? (
        query.data.length === 0 ? (
          <p className="text-sm text-slate-600">{t('timeline.empty')}</p>
        ) : (
          <ul className="flex flex-col gap-2">
            {query.data.map((activity) => (
              <li key={activity._id} className="text-sm break-words text-slate-700">
                <span className="font-medium text-slate-900">
                  {activity.actor?.name ?? t('timeline.someone')}
                </span>{' '}
                {describeActivity(activity, t)}
                {activity.task && (
                  <>
                    {' · '}
                    <Link
                      to={paths.admin.taskPage.to(activity.task._id)}
                      className="text-blue-700 underline"
                    >
                      {activity.task.title}
                    </Link>
                  </>
                )}
              </li>
            ))}
          </ul>
        )
      ) : query.isError ? (
        <ErrorState message={t('timeline.loadFailed')} onRetry={() => void query.refetch()} />
      ) : (
        <Skeleton className="h-24" />
      )}
    </section>
  );
}
