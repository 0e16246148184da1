import type { DashboardResponse } from '@task-manager/shared';
import { formatNumber } from '../../../lib/format';
import { STATUS_COLOURS } from './chart-data';

type Statistics = DashboardResponse['statistics'];

const CARDS: { label: string; value: (stats: Statistics) => number; colour: string }[] = [
  { label: 'Total Tasks', value: (stats) => stats.totalTasks, colour: '#1d4ed8' },
  { label: 'Pending Tasks', value: (stats) => stats.pendingTasks, colour: STATUS_COLOURS.Pending },
  {
    label: 'In Progress Tasks',
    value: (stats) => stats.inProgressTasks,
    colour: STATUS_COLOURS['In Progress'],
  },
  {
    label: 'Completed Tasks',
    value: (stats) => stats.completedTasks,
    colour: STATUS_COLOURS.Completed,
  },
];

/** The four counts, as a description list: each number is read with its label. */
export function StatCards({ statistics }: { statistics: Statistics }) {
  return (
    <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
      {CARDS.map(({ label, value, colour }) => (
        <div
          key={label}
          className="flex flex-col-reverse gap-1 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
        >
          <dt className="flex items-center gap-2 text-xs text-slate-600 sm:text-sm">
            <span aria-hidden className="h-3 w-1 rounded-full" style={{ background: colour }} />
            {label}
          </dt>
          <dd className="text-xl font-semibold text-slate-900 md:text-2xl">
            {formatNumber(value(statistics))}
          </dd>
        </div>
      ))}
    </dl>
  );
}
