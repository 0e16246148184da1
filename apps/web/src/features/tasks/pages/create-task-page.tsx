import type { CreateTaskInput } from '@task-manager/shared';
import { Trash2 } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import toast from 'react-hot-toast';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { ErrorState, Skeleton } from '../../../components/ui/feedback';
import { Modal } from '../../../components/ui/modal';
import { paths } from '../../../config/paths';
import { errorMessage, statusOf } from '../../../lib/api-client';
import { useLabels } from '../../../lib/get-labels';
import { useCreateTask } from '../api/create-task';
import { useDeleteTask } from '../api/delete-task';
import { useTask } from '../api/get-task';
import { useUpdateTask } from '../api/update-task';
import { TaskForm } from '../components/task-form';
import { useUserChoices } from '../hooks/use-user-choices';
import { emptyTaskForm, formFromTask, isPastDay, PAST_DUE_QUESTION } from '../task-form-rules';

/** /admin/create-task: create mode, or edit mode when navigation state carries a task id. */
export function CreateTaskPage() {
  const location = useLocation();
  const taskId = (location.state as { taskId?: unknown } | null)?.taskId;
  return typeof taskId === 'string' && taskId ? (
    <UpdateTaskForm key={taskId} taskId={taskId} />
  ) : (
    <CreateTask />
  );
}

function FormCard({
  title,
  action,
  children,
}: {
  title: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby="task-form-heading"
      className="mx-auto max-w-4xl rounded-lg border border-slate-200 bg-white p-4 sm:p-6"
    >
      <div className="mb-5 flex items-center justify-between gap-3">
        <h1 id="task-form-heading" className="text-xl font-semibold text-slate-900">
          {title}
        </h1>
        {action}
      </div>
      {children}
    </section>
  );
}

function CreateTask() {
  // A new key mounts a fresh, blank form after a task is created.
  const [formKey, setFormKey] = useState(0);
  // The task just created, linked above the fresh form (the form itself starts over).
  const [created, setCreated] = useState<{ _id: string; title: string } | null>(null);
  const createTask = useCreateTask();
  const userChoices = useUserChoices();
  const labels = useLabels();

  function submit(payload: CreateTaskInput) {
    // A due date already past is allowed (recording late work), but asked about first.
    if (isPastDay(String(payload.dueDate)) && !window.confirm(PAST_DUE_QUESTION)) return;
    createTask.mutate(payload, {
      onSuccess: ({ task }) => {
        toast.success('Task Created Successfully');
        setCreated({ _id: task._id, title: task.title });
        setFormKey((key) => key + 1);
      },
      onError: (error) => toast.error(errorMessage(error, 'Failed to create task.')),
    });
  }

  return (
    <FormCard title="Create Task">
      {created && (
        <p role="status" className="mb-4 rounded-md bg-green-50 px-3 py-2 text-sm text-green-900">
          Created:{' '}
          <Link
            to={paths.admin.taskPage.to(created._id)}
            className="font-medium text-green-900 underline"
          >
            {created.title}
          </Link>
        </p>
      )}
      <TaskForm
        key={formKey}
        mode="create"
        initialValues={emptyTaskForm}
        userChoices={userChoices}
        labelChoices={labels.data}
        pending={createTask.isPending}
        onSubmit={submit}
      />
    </FormCard>
  );
}

/** The edit form of one task, also at /admin/tasks/:id/edit. */
export function UpdateTaskForm({ taskId }: { taskId: string }) {
  const task = useTask(taskId);
  const updateTask = useUpdateTask();
  const deleteTask = useDeleteTask();
  const userChoices = useUserChoices();
  const labels = useLabels();
  const navigate = useNavigate();
  const [confirmingDelete, setConfirmingDelete] = useState(false);

  if (!task.data) {
    if (task.isError)
      return <TaskLoadError error={task.error} onRetry={() => void task.refetch()} />;
    return <FormSkeleton />;
  }
  const current = task.data;

  function submit(payload: CreateTaskInput) {
    updateTask.mutate(
      { id: taskId, input: payload },
      {
        onSuccess: () => toast.success('Task Updated Successfully'),
        onError: (error) => toast.error(errorMessage(error, 'Failed to update task.')),
      },
    );
  }

  function confirmDelete() {
    deleteTask.mutate(taskId, {
      onSuccess: () => {
        toast.success('Task deleted successfully');
        setConfirmingDelete(false);
        void navigate(paths.admin.tasks);
      },
      onError: (error) => toast.error(errorMessage(error, 'Failed to delete task.')),
    });
  }

  return (
    <FormCard
      title="Update Task"
      action={
        <Button variant="secondary" onClick={() => setConfirmingDelete(true)}>
          <Trash2 size={16} aria-hidden />
          Delete
        </Button>
      }
    >
      {/* Saved data comes back with a new updatedAt: the form starts again from it. */}
      <TaskForm
        key={current.updatedAt}
        mode="update"
        initialValues={formFromTask(current)}
        existingChecklist={current.todoChecklist}
        userChoices={userChoices}
        labelChoices={labels.data}
        pending={updateTask.isPending}
        onSubmit={submit}
      />
      <Modal
        open={confirmingDelete}
        title="Delete Task"
        onClose={() => setConfirmingDelete(false)}
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirmingDelete(false)}>
              Cancel
            </Button>
            <Button variant="danger" onClick={confirmDelete} disabled={deleteTask.isPending}>
              Delete
            </Button>
          </>
        }
      >
        <p className="text-sm text-slate-800">Are you sure want to delete this task?</p>
      </Modal>
    </FormCard>
  );
}

function TaskLoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const notFound = statusOf(error) === 404;
  return (
    <FormCard title="Update Task">
      <div className="flex flex-col items-center gap-4">
        <ErrorState
          message={
            notFound ? errorMessage(error, 'Task not found') : 'Failed to load task details.'
          }
          onRetry={notFound ? undefined : onRetry}
        />
        <Link to={paths.admin.tasks} className="text-sm font-medium text-blue-700 underline">
          Back to Manage Tasks
        </Link>
      </div>
    </FormCard>
  );
}

function FormSkeleton() {
  return (
    <section
      aria-busy="true"
      aria-label="Loading task"
      className="mx-auto flex max-w-4xl flex-col gap-5 rounded-lg border border-slate-200 bg-white p-4 sm:p-6"
    >
      <Skeleton className="h-7 w-40" />
      <Skeleton className="h-10" />
      <Skeleton className="h-24" />
      <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
        <Skeleton className="h-10" />
        <Skeleton className="h-10" />
      </div>
      <Skeleton className="h-10 w-40" />
      <Skeleton className="h-20" />
      <Skeleton className="h-10" />
    </section>
  );
}
