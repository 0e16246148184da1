import type { Task } from '@task-manager/shared';
import type { ReactNode } from 'react';
import { ErrorState } from '../../../components/ui/feedback';
import type { useTaskList } from '../hooks/use-task-list';
import { StatusTabs, tabIdFor } from './status-tabs';
import { TaskCard, type TaskCardTarget } from './task-card';
import { EmptyTab, TASK_GRID_CLASS, TaskListSkeleton } from './task-list-states';

const ID_PREFIX = 'task-status';
const PANEL_ID = `${ID_PREFIX}-panel`;
/** Worded apart from the failure toast, so each is found by its own text. */
export const TASKS_NOT_LOADED = 'The tasks could not be loaded.';

/**
 * Status tabs over the grid of task cards, with the loading, error and empty states. Shared by
 * the admin's Manage Tasks page and the member's My Tasks page.
 */
export function TaskList({
  list,
  targetFor,
  noTasks,
}: {
  list: ReturnType<typeof useTaskList>;
  targetFor: (task: Task) => TaskCardTarget;
  /** What to show when there are no tasks at all. */
  noTasks: ReactNode;
}) {
  const { status, setStatus, query, isUpdating } = list;
  const { data } = query;

  let content: ReactNode;
  if (query.isPending || (query.isError && !data && query.isFetching)) {
    content = <TaskListSkeleton />;
  } else if (!data) {
    content = <ErrorState message={TASKS_NOT_LOADED} onRetry={() => void query.refetch()} />;
  } else if (data.statusSummary.all === 0 && data.tasks.length === 0) {
    content = noTasks;
  } else if (data.tasks.length === 0) {
    // While the list is still the previous tab's, its emptiness says nothing about this tab.
    content = isUpdating ? <TaskListSkeleton /> : <EmptyTab status={status} />;
  } else {
    content = (
      <ul className={TASK_GRID_CLASS}>
        {data.tasks.map((task) => (
          <li key={task._id}>
            <TaskCard task={task} target={targetFor(task)} />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <div className="flex flex-col gap-4">
      <StatusTabs
        selected={status}
        onSelect={setStatus}
        summary={data?.statusSummary}
        idPrefix={ID_PREFIX}
        panelId={PANEL_ID}
      />
      <div
        role="tabpanel"
        id={PANEL_ID}
        aria-labelledby={tabIdFor(ID_PREFIX, status)}
        aria-busy={isUpdating || query.isFetching}
        className={`transition-opacity ${isUpdating ? 'opacity-60' : ''}`}
      >
        {content}
      </div>
    </div>
  );
}
