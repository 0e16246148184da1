import type { Task } from '@task-manager/shared';
import { ArrowRight } from 'lucide-react';
import { useId } from 'react';
import { useNavigate } from 'react-router-dom';
import { PriorityBadge, StatusBadge } from '../../../components/ui/badges';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/feedback';
import { formatDate } from '../../../lib/format';

const cell = 'px-3 py-2.5 text-left align-middle';

/**
 * The newest tasks with a See All button to the full list. On narrow screens the table scrolls
 * sideways inside a focusable region, so keyboard users can scroll it too.
 */
export function RecentTasksTable({ tasks, seeAllPath }: { tasks: Task[]; seeAllPath: string }) {
  const headingId = useId();
  const navigate = useNavigate();
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
    >
      <div className="flex items-center justify-between gap-3">
        <h2 id={headingId} className="font-semibold text-slate-900">
          Recent Tasks
        </h2>
        <Button variant="secondary" onClick={() => void navigate(seeAllPath)}>
          See All <ArrowRight size={16} aria-hidden />
        </Button>
      </div>
      {tasks.length === 0 ? (
        <div className="mt-4">
          <EmptyState title="No tasks yet">New tasks will show up here.</EmptyState>
        </div>
      ) : (
        <div
          role="region"
          aria-label="Recent Tasks table"
          tabIndex={0}
          className="mt-4 overflow-x-auto rounded-md border border-slate-200"
        >
          <table className="w-full min-w-[36rem] text-sm">
            <thead className="bg-slate-50 text-slate-700">
              <tr>
                <th scope="col" className={`${cell} font-medium`}>
                  Name
                </th>
                <th scope="col" className={`${cell} font-medium`}>
                  Status
                </th>
                <th scope="col" className={`${cell} font-medium`}>
                  Priority
                </th>
                <th scope="col" className={`${cell} font-medium`}>
                  Created On
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {tasks.map((task) => (
                <tr key={task._id}>
                  <td
                    className={`${cell} max-w-[18rem] truncate text-slate-900`}
                    title={task.title}
                  >
                    {task.title}
                  </td>
                  <td className={cell}>
                    <StatusBadge status={task.status} />
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
