import type { Task, TodoItem } from '@task-manager/shared';
import { useMemo, type ReactNode } from 'react';
import toast from 'react-hot-toast';
import { Link, useParams } from 'react-router-dom';
import { AvatarStack } from '../../../components/ui/avatar';
import { StatusBadge } from '../../../components/ui/badges';
import { DueDateText, OverdueBadge } from '../../../components/ui/due-date';
import { LabelChips } from '../../../components/ui/label-chips';
import { ErrorState, Spinner } from '../../../components/ui/feedback';
import { paths } from '../../../config/paths';
import { statusOf } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { useTask } from '../api/get-task';
import { useTaskHistory } from '../api/get-task-history';
import { useUpdateChecklistItem } from '../api/update-checklist-item';
import { TaskAttachments } from '../components/task-attachments';
import { checklistPeople } from '../checklist-people';
import { TaskChecklist } from '../components/task-checklist';
import { TaskFiles } from '../timeline/task-files';
import { TaskTimeline } from '../timeline/task-timeline';

/** /user/task-details/:id — a member's view of one task, where they tick the checklist. */
export function TaskDetailsPage() {
  return <TaskView />;
}

/**
 * One task read from the route's `:id`: the member's details page, and the admin's task page
 * (`action` adds the admin's Edit link).
 */
export function TaskView({ action }: { action?: (task: Task) => ReactNode }) {
  const { id = '' } = useParams();
  const task = useTask(id);

  if (task.data) return <TaskDetails task={task.data} action={action?.(task.data)} />;
  if (task.isError) {
    // A task that does not exist (or is not the caller's) will not come back on a retry.
    if (statusOf(task.error) === 404) return <TaskNotFound />;
    return (
      <ErrorState message="Failed to load task details." onRetry={() => void task.refetch()} />
    );
  }
  return <Spinner label="Loading task..." />;
}

/** A missing task: says so, and leads back to the person's task list. */
function TaskNotFound() {
  const { user } = useSession();
  const list = user?.role === 'admin' ? paths.admin.tasks : paths.user.tasks;
  return (
    <div
      role="alert"
      className="flex flex-col items-center gap-3 rounded-lg border border-slate-200 bg-white p-8 text-center"
    >
      <h1 className="text-lg font-semibold text-slate-900">Task not found</h1>
      <p className="text-sm text-slate-700">
        It may have been deleted, or it is not assigned to you.
      </p>
      <Link to={list} className="font-medium text-blue-700 underline">
        {user?.role === 'admin' ? 'Back to Manage Tasks' : 'Back to My Tasks'}
      </Link>
    </div>
  );
}

function TaskDetails({ task, action }: { task: Task; action?: ReactNode }) {
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
        onSuccess: () => toast.success('Checklist updated successfully'),
        onError: () => toast.error('Failed to update checklist.'),
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
      <Info label="Description">
        <p className="text-sm whitespace-pre-line text-slate-800">{task.description}</p>
      </Info>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        <Info label="Priority">
          <p className="text-sm font-medium text-slate-900">{task.priority}</p>
        </Info>
        <Info label="Due Date">
          <p className="text-sm">
            <DueDateText task={task} />
          </p>
        </Info>
        <Info label="Assigned To">
          <AvatarStack people={task.assignedTo} max={5} />
          {/* The faces overlap: the names are listed too, a deactivated person marked so. */}
          <ul aria-label="Assignees" className="flex flex-wrap gap-x-2 text-sm text-slate-800">
            {task.assignedTo.map((person) => (
              <li key={person._id}>
                {person.name}
                {person.deactivated && <span className="text-slate-600"> (deactivated)</span>}
              </li>
            ))}
          </ul>
        </Info>
      </div>
      <Info label="Todo Checklist">
        <TaskChecklist
          taskId={task._id}
          items={task.todoChecklist}
          onToggle={toggle}
          canAdd={canUpload}
          canRename={canRename}
        />
      </Info>
      <Info label="Attachments">
        <TaskAttachments links={task.attachments} />
      </Info>
      <TaskFiles taskId={task._id} files={task.files ?? []} canUpload={canUpload} />
      <TaskTimeline taskId={task._id} />
    </article>
  );
}

function Info({ label, children }: { label: string; children: ReactNode }) {
  return (
    <section className="flex flex-col gap-1.5">
      <h2 className="text-xs font-medium text-slate-600">{label}</h2>
      {children}
    </section>
  );
}
