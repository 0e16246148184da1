import { EmptyState, Skeleton } from '../../../components/ui/feedback';
import type { GridColumns } from '../../../components/ui/virtual-grid';
import { useT } from '../../../lib/i18n';
import type { TaskStatusFilter } from '../api/get-tasks';

/** The cards' grid: one column on a phone, two from md, three from xl (the same in both forms). */
export const TASK_GRID_CLASS = 'grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-3';
export const TASK_GRID_COLUMNS: GridColumns = { base: 1, md: 2, xl: 3 };

/** Card-shaped placeholders while the first list loads. */
export function TaskListSkeleton({ cards = 6 }: { cards?: number }) {
  const t = useT();
  return (
    <div role="status">
      <span className="sr-only">{t('tasks.loading')}</span>
      <div className={TASK_GRID_CLASS}>
        {Array.from({ length: cards }, (_, index) => (
          <div
            key={index}
            aria-hidden
            className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4"
          >
            <div className="flex gap-2">
              <Skeleton className="h-5 w-20" />
              <Skeleton className="h-5 w-24" />
            </div>
            <Skeleton className="h-5 w-3/4" />
            <Skeleton className="h-12 w-full" />
            <Skeleton className="h-2 w-full" />
            <div className="flex justify-between">
              <Skeleton className="h-9 w-24" />
              <Skeleton className="h-9 w-24" />
            </div>
            <Skeleton className="h-8 w-24 rounded-full" />
          </div>
        ))}
      </div>
    </div>
  );
}

const emptyTabMessages = {
  All: 'tasks.noTasks',
  Pending: 'tasks.noPending',
  'In Progress': 'tasks.noInProgress',
  Completed: 'tasks.noCompleted',
} as const satisfies Record<TaskStatusFilter, `tasks.${string}`>;

/** A tab with nothing in it while other tabs have tasks. */
export function EmptyTab({ status }: { status: TaskStatusFilter }) {
  const t = useT();
  return <EmptyState title={t(emptyTabMessages[status])}>{t('tasks.emptyTabHint')}</EmptyState>;
}
