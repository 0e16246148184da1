import type { TaskCard } from '@task-manager/shared';
import { EmptyState } from '../../../components/ui/feedback';
import { paths } from '../../../config/paths';
import { useT } from '../../../lib/i18n';
import { TaskList } from '../components/task-list';
import { useTaskList } from '../hooks/use-task-list';

/** Spec section 4: the member list waits 100 ms after a tab change and does not retry. */
export const MEMBER_LIST_DEBOUNCE_MS = 100;

function detailsTarget(task: TaskCard) {
  return { to: paths.user.taskDetails.to(task._id) };
}

/** My Tasks (/user/tasks): the tasks assigned to the signed-in member, by status. */
export function MyTasksPage() {
  const t = useT();
  const list = useTaskList({ debounceMs: MEMBER_LIST_DEBOUNCE_MS, retryDelayMs: null });
  return (
    <section aria-labelledby="tasks-heading" className="flex flex-col gap-4">
      <h1 id="tasks-heading" className="text-xl font-semibold text-slate-900">
        {t('tasks.myHeading')}
      </h1>
      <TaskList
        list={list}
        targetFor={detailsTarget}
        noTasks={<EmptyState title={t('tasks.noTasks')}>{t('tasks.assignedHint')}</EmptyState>}
      />
    </section>
  );
}
