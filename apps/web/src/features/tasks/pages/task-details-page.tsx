import type { Task, TodoItem } from '@task-manager/shared';
import { useId, useMemo, type ReactNode } from 'react';
import toast from 'react-hot-toast';
import { Link, useParams } from 'react-router-dom';
import { AvatarStack } from '../../../components/ui/avatar';
import { StatusBadge } from '../../../components/ui/badges';
import { DueDateText, OverdueBadge } from '../../../components/ui/due-date';
import { LabelChips } from '../../../components/ui/label-chips';
import { ErrorState, Spinner } from '../../../components/ui/feedback';
import { paths } from '../../../config/paths';
import { statusOf } from '../../../lib/api-client';
import { useT } from '../../../lib/i18n';
import { useSession } from '../../../lib/session';
import { priorityName } from '../../../lib/task-names';
import { useTask } from '../api/get-task';
import { useTaskHistory } from '../api/get-task-history';
import { useUpdateChecklistItem } from '../api/update-checklist-item';
import { TaskAttachments } from '../components/task-attachments';
import { checklistPeople } from '../checklist-people';
import { TaskChecklist } from '../components/task-checklist';
import { readCommentDraft } from '../timeline/comment-box';
import { TaskFiles } from '../timeline/task-files';
import { TaskTimeline } from '../timeline/task-timeline';
import { notify } from '../../../lib/notify';

/** /user/task-details/:id — a member's view of one task, where they tick the checklist. */
export function TaskDetailsPage() {
  return <TaskView />;
}

/**
 * One task read from the route's `:id`: the member's details page, and the admin's task page
 * (`action` adds the admin's Edit link).
 */
export function TaskView({ action }: { action?: (task: Task) => ReactNode }) {
  const t = useT();
  const { id = '' } = useParams();
  const task = useTask(id);

  // A task that does not exist (or is no longer the caller's) will not come back on a retry. A
  // 404 wins over the task still in the cache: it was deleted (or unassigned) while open here.
  if (task.isError && statusOf(task.error) === 404) return <TaskNotFound taskId={id} />;
  if (task.data) return <TaskDetails task={task.data} action={action?.(task.data)} />;
  if (task.isError) {
    return <ErrorState message={t('taskDetails.loadFailed')} onRetry={() => void task.refetch()} />;
  }
  return <Spinner label={t('taskDetails.loading')} />;
}

/**
 * A missing task: says so, and leads back to the person's task list. A comment they had typed
 * on it and not posted is shown, so it can still be copied.
 */
function TaskNotFound({ taskId }: { taskId: string }) {
  const t = useT();
  const { user } = useSession();
  const isAdmin = user?.role === 'admin';
  const draft = readCommentDraft(taskId);
  const draftId = useId();
  return (
    <div
      role="alert"
      className="flex flex-col items-center gap-3 rounded-lg border border-slate-200 bg-white p-8 text-center"
    >
      <h1 className="text-lg font-semibold text-slate-900">{t('taskDetails.notFound')}</h1>
      <p className="text-sm text-slate-700">{t('taskDetails.notFoundText')}</p>
      <Link
        to={isAdmin ? paths.admin.tasks : paths.user.tasks}
        className="font-medium text-blue-700 underline"
      >
        {isAdmin ? t('taskDetails.backToManageTasks') : t('taskDetails.backToMyTasks')}
      </Link>
      {draft && (
        <div className="flex w-full max-w-xl flex-col gap-1 text-left text-sm">
          <label htmlFor={draftId} className="font-medium text-slate-900">
            {t('taskDetails.unsentComment')}
          </label>
          <textarea
            id={draftId}
            readOnly
            value={draft}
            rows={4}
            aria-describedby={`${draftId}-hint`}
            className="w-full rounded-md border border-slate-300 bg-slate-50 px-3 py-2 text-slate-900"
          />
          <p id={`${draftId}-hint`} className="text-xs text-slate-600">
            {t('taskDetails.unsentCommentHint')}
          </p>
        </div>
      )}
    </div>
  );
}

function TaskDetails({ task, action }: { task: Task; action?: ReactNode }) {
  const t = useT();
  const updateItem = useUpdateChecklistItem();
  const { user } = useSession();
  const isAdmin = user?.role === 'admin';
  // Admins and the task's assignees may attach files and add checklist items.
  const canUpload = isAdmin || task.assignedTo.some((person) => person._id === user?._id);
  // An assignee renames the items they added (the API's rule): the history says who added what.
  const history = useTaskHistory(task._id);
  const { addedBy } = useMemo(() => checklistPeople(history.data ?? []), [history.data]);
  const canRename = (item: TodoItem) =>
    isAdmin || (canUpload && !!user && addedBy.get(item._id) === user._id);

  function toggle(item: TodoItem) {
    updateItem.mutate(
      { taskId: task._id, itemId: item._id, completed: !item.completed },
      {
        onSuccess: () => toast.success(t('taskDetails.checklistUpdated')),
        onError: () => notify('error', t('taskDetails.checklistFailed')),
      },
    );
  }

  return (
    <article
      aria-labelledby="task-title"
      className="mx-auto flex max-w-4xl flex-col gap-6 rounded-lg border border-slate-200 bg-white p-4 sm:p-6"
    >
      <header className="flex flex-wrap items-start justify-between gap-3">
        <h1 id="task-title" className="min-w-0 text-xl font-semibold break-words text-slate-900">
          {task.title}
        </h1>
        <div className="flex flex-wrap items-center gap-2">
          <StatusBadge status={task.status} />
          <OverdueBadge task={task} />
          {action}
        </div>
      </header>
      <LabelChips labels={task.labels} />
      <Info label={t('taskDetails.description')}>
        <p className="text-sm break-words whitespace-pre-line text-slate-800">{task.description}</p>
      </Info>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        <Info label={t('taskDetails.priority')}>
          <p className="text-sm font-medium text-slate-900">{priorityName(task.priority, t)}</p>
        </Info>
        <Info label={t('taskDetails.dueDate')}>
          <p className="text-sm">
            <DueDateText task={task} />
          </p>
        </Info>
        <Info label={t('taskDetails.assignedTo')}>
          <AvatarStack people={task.assignedTo} max={5} />
          {/* The faces overlap: the names are listed too, a deactivated person marked so. A long
              name without spaces wraps anywhere rather than widen the page. */}
          <ul
            aria-label={t('taskDetails.assignees')}
            className="flex flex-wrap gap-x-2 text-sm text-slate-800"
          >
            {task.assignedTo.map((person) => (
              <li key={person._id} className="max-w-full min-w-0 wrap-anywhere">
                {person.name}
                {person.deactivated && (
                  <span className="text-slate-600"> {t('taskDetails.deactivated')}</span>
                )}
              </li>
            ))}
          </ul>
        </Info>
      </div>
      <Info label={t('taskDetails.checklist')}>
        <TaskChecklist
          taskId={task._id}
          items={task.todoChecklist}
          onToggle={toggle}
          canAdd={canUpload}
          canRename={canRename}
        />
      </Info>
      <Info label={t('taskDetails.attachments')}>
        <TaskAttachments links={task.attachments} />
      </Info>
      <TaskFiles taskId={task._id} files={task.files ?? []} canUpload={canUpload} />
      <TaskTimeline taskId={task._id} />
    </article>
  );
}

function Info({ label, children }: { label: string; children: ReactNode }) {
  return (
    // min-w-0: a grid cell may be narrower than its longest word (a long name) and wrap it.
    <section className="flex min-w-0 flex-col gap-1.5">
      <h2 className="text-xs font-medium text-slate-600">{label}</h2>
      {children}
    </section>
  );
}
