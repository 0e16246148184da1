import type { DashboardResponse } from '@task-manager/shared';
import { Link } from 'react-router-dom';
import { formatNumber } from '../../../lib/format';
import { useT } from '../../../lib/i18n';
import { STATUS_COLOURS } from './chart-data';

type Statistics = DashboardResponse['statistics'];

const CARDS: {
  label:
    | 'dashboard.totalTasks'
    | 'dashboard.pendingTasks'
    | 'dashboard.inProgressTasks'
    | 'dashboard.completedTasks';
  value: (stats: Statistics) => number;
  colour: string;
  /** The task list's query string that shows what the card counts. */
  query: string;
}[] = [
  {
    label: 'dashboard.totalTasks',
    query: '',
    value: (stats) => stats.totalTasks,
    colour: 'var(--color-blue-700)',
  },
  {
    label: 'dashboard.pendingTasks',
    query: '?status=Pending',
    value: (stats) => stats.pendingTasks,
    colour: STATUS_COLOURS.Pending,
  },
  {
    label: 'dashboard.inProgressTasks',
    query: '?status=In%20Progress',
    value: (stats) => stats.inProgressTasks,
    colour: STATUS_COLOURS['In Progress'],
  },
  {
    label: 'dashboard.completedTasks',
    query: '?status=Completed',
    value: (stats) => stats.completedTasks,
    colour: STATUS_COLOURS.Completed,
  },
];

const cardClass = 'flex flex-col-reverse gap-1 rounded-lg border bg-white p-4 shadow-sm';
/**
 * A card that opens a list is clickable as a whole: its one link (the number, read with its
 * label) stretches over the card, so the keyboard and screen readers still meet a single link.
 */
const linkedCardClass =
  'relative hover:border-blue-400 hover:shadow has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-blue-700';
const cardLinkClass =
  'underline-offset-4 hover:underline focus-visible:outline-none after:absolute after:inset-0 after:rounded-lg';

/**
 * The four counts, as a description list: each number is read with its label. With
 * `overduePath`, a fifth card counts the overdue tasks and opens the list filtered to them.
 */
export function StatCards({
  statistics,
  overduePath,
  listPath,
}: {
  statistics: Statistics;
  overduePath?: string;
  /** With it, each count opens the task list showing what it counts. */
  listPath?: string;
}) {
  const t = useT();
  const overdue = statistics.overdueTasks;
  return (
    <dl
      className={`grid grid-cols-2 gap-3 ${overduePath ? 'md:grid-cols-3 xl:grid-cols-5' : 'md:grid-cols-4'}`}
    >
      {CARDS.map(({ label, value, colour, query }) => (
        <div
          key={label}
          className={`${cardClass} border-slate-200 ${listPath ? linkedCardClass : ''}`}
        >
          <dt className="flex items-center gap-2 text-xs text-slate-600 sm:text-sm">
            <span aria-hidden className="h-3 w-1 rounded-full" style={{ background: colour }} />
            {t(label)}
          </dt>
          <dd className="text-xl font-semibold text-slate-900 md:text-2xl">
            {listPath ? (
              <Link
                to={`${listPath}${query}`}
                aria-label={`${t(label)}: ${formatNumber(value(statistics))}`}
                className={cardLinkClass}
              >
                {formatNumber(value(statistics))}
              </Link>
            ) : (
              formatNumber(value(statistics))
            )}
          </dd>
        </div>
      ))}
      {overduePath && (
        <div
          className={`${cardClass} ${linkedCardClass} ${overdue > 0 ? 'border-red-300' : 'border-slate-200'}`}
        >
          <dt className="flex items-center gap-2 text-xs text-slate-600 sm:text-sm">
            <span aria-hidden className="h-3 w-1 rounded-full bg-red-600" />
            {t('dashboard.overdueTasks')}
          </dt>
          <dd className="text-xl font-semibold md:text-2xl">
            <Link
              to={overduePath}
              aria-label={t('dashboard.openOverdue', { number: formatNumber(overdue) })}
              className={`${cardLinkClass} ${overdue > 0 ? 'text-red-700' : 'text-slate-900'}`}
            >
              {formatNumber(overdue)}
            </Link>
          </dd>
        </div>
      )}
    </dl>
  );
}
