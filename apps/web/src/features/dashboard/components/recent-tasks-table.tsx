import type { Task } from '@task-manager/shared';
import { ArrowRight } from 'lucide-react';
import { useId, type MouseEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { PriorityBadge, StatusBadge } from '../../../components/ui/badges';
import { OverdueBadge } from '../../../components/ui/due-date';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/feedback';
import { formatDate } from '../../../lib/format';
import { useT } from '../../../lib/i18n';
import { useMediaQuery } from '../../../lib/use-media-query';

const cell = 'px-3 py-2.5 text-left align-middle';

/** Below Tailwind's `sm` breakpoint (a phone held upright) the table becomes a list. */
const PHONE = '(max-width: 39.99rem)';

/**
 * The newest tasks with a See All button to the full list. On a phone they are a list of small
 * cards; on wider screens a table, which scrolls sideways inside a focusable region when it must
 * (so keyboard users can scroll it too).
 */
export function RecentTasksTable({
  tasks,
  seeAllPath,
  taskPath,
}: {
  tasks: Task[];
  seeAllPath: string;
  /** Where a row's name leads: the task's own page. */
  taskPath?: (id: string) => string;
}) {
  const t = useT();
  const headingId = useId();
  const navigate = useNavigate();
  const phone = useMediaQuery(PHONE);
  /**
   * A click anywhere on a row opens its task, as the link on its name does (the one place the
   * keyboard and screen readers reach); not a click on that link, nor the end of selecting text.
   */
  const openFromRow = (event: MouseEvent<HTMLTableRowElement>, path: string) => {
    if ((event.target as Element).closest('a, button')) return;
    if (window.getSelection()?.toString()) return;
    void navigate(path);
  };
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
    >
      <div className="flex items-center justify-between gap-3">
        <h2 id={headingId} className="font-semibold text-slate-900">
          {t('dashboard.recentTasks')}
        </h2>
        <Button variant="secondary" onClick={() => void navigate(seeAllPath)}>
          {t('dashboard.seeAll')} <ArrowRight size={16} aria-hidden />
        </Button>
      </div>
      {tasks.length === 0 ? (
        <div className="mt-4">
          <EmptyState title={t('dashboard.noTasks')}>{t('dashboard.noTasksHint')}</EmptyState>
        </div>
      ) : phone ? (
        <RecentTasksList tasks={tasks} taskPath={taskPath} label={t('dashboard.recentTasks')} />
      ) : (
        <div
          role="region"
          aria-label={t('dashboard.recentTasksTable')}
          tabIndex={0}
          className="mt-4 overflow-x-auto rounded-md border border-slate-200"
        >
          <table className="w-full min-w-[36rem] text-sm">
            <thead className="bg-slate-50 text-slate-700">
              <tr>
                <th scope="col" className={`${cell} font-medium`}>
                  {t('dashboard.name')}
                </th>
                <th scope="col" className={`${cell} font-medium`}>
                  {t('dashboard.status')}
                </th>
                <th scope="col" className={`${cell} font-medium`}>
                  {t('dashboard.priority')}
                </th>
                <th scope="col" className={`${cell} font-medium`}>
                  {t('dashboard.createdOn')}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {tasks.map((task) => (
                <tr
                  key={task._id}
                  className={taskPath ? 'cursor-pointer hover:bg-slate-50' : undefined}
                  onClick={taskPath ? (event) => openFromRow(event, taskPath(task._id)) : undefined}
                >
                  <td
                    className={`${cell} max-w-[18rem] truncate text-slate-900`}
                    title={task.title}
                  >
                    {taskPath ? (
                      <Link to={taskPath(task._id)} className="text-blue-800 hover:underline">
                        {task.title}
                      </Link>
                    ) : (
                      task.title
                    )}
                  </td>
                  <td className={cell}>
                    <span className="flex flex-wrap items-center gap-1.5">
                      <StatusBadge status={task.status} />
                      <OverdueBadge task={task} />
                    </span>
                  </td>
                  <td className={cell}>
                    <PriorityBadge priority={task.priority} />
                  </td>
                  <td className={`${cell} whitespace-nowrap text-slate-700`}>
                    {formatDate(task.createdAt)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** The phone's form: one small card per task, the title first, then its badges and date. */
function RecentTasksList({
  tasks,
  taskPath,
  label,
}: {
  tasks: Task[];
  taskPath?: (id: string) => string;
  label: string;
}) {
  return (
    <ul aria-label={label} className="mt-4 flex flex-col divide-y divide-slate-200">
      {tasks.map((task) => (
        <li key={task._id} className="relative flex flex-col gap-1.5 py-2.5">
          <span className="text-sm font-medium break-words text-slate-900">
            {taskPath ? (
              // Stretched over the whole item: a tap anywhere on it opens the task.
              <Link
                to={taskPath(task._id)}
                className="text-blue-800 after:absolute after:inset-0 hover:underline"
              >
                {task.title}
              </Link>
            ) : (
              task.title
            )}
          </span>
          <span className="flex flex-wrap items-center gap-1.5 text-xs text-slate-700">
            <StatusBadge status={task.status} />
            <PriorityBadge priority={task.priority} />
            <OverdueBadge task={task} />
            <span className="whitespace-nowrap">{formatDate(task.createdAt)}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}
