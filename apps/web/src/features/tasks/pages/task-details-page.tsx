import type { Task, TodoItem } from '@task-manager/shared';
import type { ReactNode } from 'react';
import toast from 'react-hot-toast';
import { useParams } from 'react-router-dom';
import { AvatarStack } from '../../../components/ui/avatar';
import { StatusBadge } from '../../../components/ui/badges';
import { ErrorState, Spinner } from '../../../components/ui/feedback';
import { formatDueDate } from '../../../lib/format';
import { useTask } from '../api/get-task';
import { useUpdateChecklistItem } from '../api/update-checklist-item';
import { TaskAttachments } from '../components/task-attachments';
import { TaskChecklist } from '../components/task-checklist';

/** /user/task-details/:id — a member's view of one task, where they tick the checklist. */
export function TaskDetailsPage() {
  const { id = '' } = useParams();
  const task = useTask(id);

  if (task.data) return <TaskDetails task={task.data} />;
  if (task.isError) {
    return (
      <ErrorState message="Failed to load task details." onRetry={() => void task.refetch()} />
    );
  }
  return <Spinner label="Loading task..." />;
}

function TaskDetails({ task }: { task: Task }) {
  const updateItem = useUpdateChecklistItem();

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
        <StatusBadge status={task.status} />
      </header>
      <Info label="Description">
        <p className="text-sm whitespace-pre-line text-slate-800">{task.description}</p>
      </Info>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        <Info label="Priority">
          <p className="text-sm font-medium text-slate-900">{task.priority}</p>
        </Info>
        <Info label="Due Date">
          <p className="text-sm font-medium text-slate-900">{formatDueDate(task.dueDate)}</p>
        </Info>
        <Info label="Assigned To">
          <AvatarStack people={task.assignedTo} max={5} />
        </Info>
      </div>
      <Info label="Todo Checklist">
        <TaskChecklist items={task.todoChecklist} onToggle={toggle} />
      </Info>
      <Info label="Attachments">
        <TaskAttachments links={task.attachments} />
      </Info>
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
