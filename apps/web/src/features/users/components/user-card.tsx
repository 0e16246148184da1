import type { UserWithTaskCounts } from '@task-manager/shared';
import type { ReactNode } from 'react';
import { Avatar } from '../../../components/ui/avatar';
import { Skeleton } from '../../../components/ui/feedback';
import { formatNumber } from '../../../lib/format';
import { useT } from '../../../lib/i18n';

const counts = [
  { label: 'team.pending', key: 'pendingTasks', colour: 'text-violet-800' },
  { label: 'team.inProgress', key: 'inProgressTasks', colour: 'text-cyan-800' },
  { label: 'team.completed', key: 'completedTasks', colour: 'text-green-800' },
] as const;

/**
 * A team member: photo, name, e-mail and how many of their tasks are in each status; their role
 * and a "Deactivated" mark when they apply, and the admin's actions when given.
 */
export function UserCard({
  user,
  actions,
}: {
  user: UserWithTaskCounts & { active?: boolean };
  actions?: ReactNode;
}) {
  const deactivated = user.active === false;
  const t = useT();
  return (
    <div className="flex h-full flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4">
      <div className="flex items-center gap-3">
        <Avatar person={user} size={48} className={deactivated ? 'opacity-60' : ''} />
        <div className="min-w-0 flex-1">
          <p className="truncate font-medium text-slate-900">{user.name}</p>
          <p className="truncate text-sm text-slate-600">{user.email}</p>
          {(user.role === 'admin' || deactivated) && (
            <p className="mt-1 flex gap-1">
              {user.role === 'admin' && (
                <span className="rounded bg-blue-700 px-1.5 py-0.5 text-xs font-medium text-white">
                  {t('common.admin')}
                </span>
              )}
              {deactivated && (
                <span className="rounded bg-slate-200 px-1.5 py-0.5 text-xs font-medium text-slate-800">
                  {t('common.deactivated')}
                </span>
              )}
            </p>
          )}
        </div>
        {actions}
      </div>
      <dl className="grid grid-cols-3 gap-2">
        {counts.map(({ label, key, colour }) => (
          <div key={key} className="flex flex-col items-center rounded-md bg-slate-50 px-2 py-2">
            {/* Read as "Pending 3"; shown with the number on top. */}
            <dt className="order-2 text-center text-xs text-slate-700">{t(label)}</dt>
            <dd className={`order-1 text-lg font-semibold ${colour}`}>{formatNumber(user[key])}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

export function UserCardSkeleton() {
  return (
    <li className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4">
      <div className="flex items-center gap-3">
        <Skeleton className="h-12 w-12 rounded-full" />
        <div className="flex flex-1 flex-col gap-2">
          <Skeleton className="h-4 w-32" />
          <Skeleton className="h-3 w-44" />
        </div>
      </div>
      <Skeleton className="h-14" />
    </li>
  );
}
