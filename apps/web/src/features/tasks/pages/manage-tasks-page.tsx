import type { TaskCard } from '@task-manager/shared';
import { Link } from 'react-router-dom';
import { EmptyState } from '../../../components/ui/feedback';
import { paths } from '../../../config/paths';
import { useT } from '../../../lib/i18n';
import { DownloadTasksReportButton } from '../components/download-tasks-report-button';
import { TaskList } from '../components/task-list';
import { useTaskList } from '../hooks/use-task-list';

/** Spec section 4: the admin list waits 200 ms after a tab change and retries once after 1 s. */
export const ADMIN_LIST_DEBOUNCE_MS = 200;
export const ADMIN_LIST_RETRY_DELAY_MS = 1000;

/** A card opens the task's own page (a read view with Edit), a link anyone can share. */
function pageTarget(task: TaskCard) {
  return { to: paths.admin.taskPage.to(task._id) };
}

/** Manage Tasks (/admin/tasks): every task, by status and filters, with the report export. */
export function ManageTasksPage() {
  const t = useT();
  const list = useTaskList({
    debounceMs: ADMIN_LIST_DEBOUNCE_MS,
    retryDelayMs: ADMIN_LIST_RETRY_DELAY_MS,
  });
  const { summary } = list;
  return (
    <section aria-labelledby="tasks-heading" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 id="tasks-heading" className="text-xl font-semibold text-slate-900">
          {t('tasks.manageHeading')}
        </h1>
        <DownloadTasksReportButton hasTasks={summary ? summary.all > 0 : undefined} />
      </div>
      <TaskList
        list={list}
        targetFor={pageTarget}
        showAssignee
        noTasks={
          <EmptyState title={t('tasks.noTasks')}>
            <Link to={paths.admin.createTask} className="font-medium text-blue-700 underline">
              {t('tasks.createTask')}
            </Link>
          </EmptyState>
        }
      />
    </section>
  );
}
