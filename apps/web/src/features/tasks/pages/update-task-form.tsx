import type { CreateTaskInput, Task } from '@task-manager/shared';
import { Trash2 } from 'lucide-react';
import { useMemo, useState } from 'react';
import toast from 'react-hot-toast';
import { Link, useNavigate } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { ErrorState, Skeleton } from '../../../components/ui/feedback';
import { Modal } from '../../../components/ui/modal';
import { paths } from '../../../config/paths';
import { errorMessage, statusOf } from '../../../lib/api-client';
import { useLabels } from '../../../lib/get-labels';
import { labelsRefused, survivingLabels } from '../api/deleted-labels';
import { useT } from '../../../lib/i18n';
import { useCreateTask } from '../api/create-task';
import { useDeleteTask } from '../api/delete-task';
import { useTask } from '../api/get-task';
import { useTaskHistory } from '../api/get-task-history';
import { conflictingTask, useUpdateTask, versionTag } from '../api/update-task';
import { checklistPeople } from '../checklist-people';
import { CreatedTaskLink } from '../components/created-task-link';
import { FormCard } from '../components/form-card';
import { TaskConflictView } from '../components/task-conflict-view';
import { TaskForm } from '../components/task-form';
import { useUserChoices } from '../hooks/use-user-choices';
import { taskDraftKey, useTaskDraft } from '../task-draft';
import {
  formFromTask,
  taskFormProblem,
  toUpdatePayload,
  type TaskFormValues,
} from '../task-form-rules';
import { notify } from '../../../lib/notify';

/** The edit form of one task, at /admin/tasks/:id/edit and /admin/create-task with state. */
export function UpdateTaskForm({ taskId }: { taskId: string }) {
  // Deleted from this form: the task's query stops. The deletion's own live event would refetch
  // it (a 404 the browser logs) while the page is still on its way to Manage Tasks.
  const deleteTask = useDeleteTask();
  const task = useTask(taskId, { enabled: !deleteTask.isSuccess });
  if (!task.data) {
    if (task.isError)
      return <TaskLoadError error={task.error} onRetry={() => void task.refetch()} />;
    return <FormSkeleton />;
  }
  // Deleted since it was loaded (a live event or a save refetched it): the form stays, to re-create.
  const goneElsewhere = task.isError && statusOf(task.error) === 404;
  return <TaskEditor loaded={task.data} goneElsewhere={goneElsewhere} deleteTask={deleteTask} />;
}

/**
 * The form over one version of the task. A newer version fetched in the background does not
 * replace what the person is typing: saving sends the version they started from (If-Match), and
 * a change someone else made since shows the conflict view instead of being overwritten.
 */
function TaskEditor({
  loaded,
  goneElsewhere,
  deleteTask,
}: {
  loaded: Task;
  goneElsewhere: boolean;
  /** The form's Delete; once it succeeded, the task's query and history no longer fetch. */
  deleteTask: ReturnType<typeof useDeleteTask>;
}) {
  const t = useT();
  const taskId = loaded._id;
  const updateTask = useUpdateTask();
  const createTask = useCreateTask();
  // Saving answered 404: the task was deleted, whether or not its query has heard yet.
  const [goneOnSave, setGoneOnSave] = useState(false);
  const [recreated, setRecreated] = useState<{ _id: string; title: string } | null>(null);
  const userChoices = useUserChoices();
  const labels = useLabels();
  const navigate = useNavigate();
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const gone = goneElsewhere || goneOnSave;
  const history = useTaskHistory(taskId, !deleteTask.isSuccess && !gone);
  // Typed here when the session ended: the form starts from it, over the version it edited (a
  // change made since then shows the conflict view on saving, as for any edit).
  const draft = useTaskDraft(taskDraftKey(taskId));
  const [restored, setRestored] = useState(draft?.values ?? null);
  // The version the form edits, and the values it started from (a new one remounts the form).
  const [base, setBase] = useState(() => {
    const task = draft?.base?._id === taskId ? draft.base : loaded;
    return { task, values: formFromTask(task) };
  });
  const [conflict, setConflict] = useState<{ mine: TaskFormValues; current: Task } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const { tickedBy } = useMemo(() => checklistPeople(history.data ?? []), [history.data]);

  function startFrom(task: Task) {
    setBase({ task, values: formFromTask(task) });
    setRestored(null);
    setConflict(null);
    setProblem(null);
  }

  function save(values: TaskFormValues, over: Task) {
    const input = toUpdatePayload(values, over);
    const invalid = taskFormProblem(input);
    setProblem(invalid);
    if (invalid) return;
    setNotice(null);
    updateTask.mutate(
      { id: taskId, input, ifMatch: versionTag(over) },
      {
        onSuccess: ({ task }) => {
          toast.success(t('taskForm.updated'));
          startFrom(task);
        },
        onError: (error) => {
          const current = conflictingTask(error);
          if (current) return setConflict({ mine: values, current });
          if (statusOf(error) === 404) return setGoneOnSave(true);
          const failed = () => notify('error', errorMessage(error, t('taskForm.updateFailed')));
          if (!labelsRefused(error)) return failed();
          // A label was deleted meanwhile: the rest of the edit is saved without it, and said so.
          void survivingLabels(values.labels, labels.refetch).then((kept) => {
            if (!kept) return failed();
            save({ ...values, labels: kept }, over);
            setNotice(t('taskForm.labelsGone'));
          });
        },
      },
    );
  }

  /**
   * The task was deleted while being edited: what the person entered becomes a new task (ticks
   * kept, so its status follows them), and the form gives way to a link to it.
   */
  function recreate(payload: CreateTaskInput, values: TaskFormValues) {
    const todoChecklist = values.checklist.map(({ text, completed }) => ({ text, completed }));
    createTask.mutate(
      { ...payload, todoChecklist },
      {
        onSuccess: ({ task }) => {
          toast.success(t('taskForm.created'));
          setRecreated({ _id: task._id, title: task.title });
        },
        onError: (error) => {
          const failed = () => notify('error', errorMessage(error, t('taskForm.createFailed')));
          if (!labelsRefused(error)) return failed();
          void survivingLabels(values.labels, labels.refetch).then((kept) => {
            if (!kept) return failed();
            recreate({ ...payload, labels: kept }, { ...values, labels: kept });
            setNotice(t('taskForm.labelsGone'));
          });
        },
      },
    );
  }

  if (recreated) {
    return (
      <FormCard title={t('taskForm.updateHeading')}>
        <CreatedTaskLink label={t('taskForm.recreated')} task={recreated} />
      </FormCard>
    );
  }

  function takeTheirs(current: Task) {
    startFrom(current);
    setNotice(t('taskConflict.tookTheirs'));
  }

  function confirmDelete() {
    deleteTask.mutate(taskId, {
      onSuccess: () => {
        toast.success(t('taskForm.deleted'));
        setConfirmingDelete(false);
        void navigate(paths.admin.tasks);
      },
      onError: (error) => notify('error', errorMessage(error, t('taskForm.deleteFailed'))),
    });
  }

  return (
    <FormCard
      title={t('taskForm.updateHeading')}
      action={
        !gone && (
          <Button variant="secondary" onClick={() => setConfirmingDelete(true)}>
            <Trash2 size={16} aria-hidden />
            {t('taskForm.delete')}
          </Button>
        )
      }
    >
      {gone && (
        <p role="alert" className="mb-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-950">
          {t('taskForm.goneElsewhere')}
        </p>
      )}
      {notice && (
        <p role="status" className="mb-4 rounded-md bg-blue-50 px-3 py-2 text-sm text-blue-950">
          {notice}
        </p>
      )}
      {conflict && !gone ? (
        <TaskConflictView
          // Another conflict on saving the choices starts the choosing again.
          key={conflict.current.updatedAt}
          base={base.values}
          mine={conflict.mine}
          current={conflict.current}
          labels={labels.data ?? []}
          pending={updateTask.isPending}
          problem={problem}
          onKeepMine={(values) => save(values, conflict.current)}
          onTakeTheirs={() => takeTheirs(conflict.current)}
        />
      ) : (
        <TaskForm
          // Deleted while choosing in the conflict view: the form starts from the person's own.
          key={conflict ? 'mine' : base.task.updatedAt}
          mode="update"
          draftKey={taskDraftKey(taskId)}
          draftBase={base.task}
          restored={conflict ? null : restored}
          initialValues={conflict ? conflict.mine : base.values}
          tickedBy={tickedBy}
          userChoices={userChoices}
          labelChoices={labels.data}
          pending={updateTask.isPending || createTask.isPending}
          submitLabel={gone ? t('taskForm.recreate') : undefined}
          onSubmit={(payload, values) =>
            gone ? recreate(payload, values) : save(values, base.task)
          }
        />
      )}
      <Modal
        open={confirmingDelete}
        title={t('taskForm.deleteTitle')}
        onClose={() => setConfirmingDelete(false)}
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirmingDelete(false)}>
              {t('common.cancel')}
            </Button>
            <Button variant="danger" onClick={confirmDelete} disabled={deleteTask.isPending}>
              {t('taskForm.delete')}
            </Button>
          </>
        }
      >
        <p className="text-sm text-slate-800">{t('taskForm.deleteQuestion')}</p>
      </Modal>
    </FormCard>
  );
}

function TaskLoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const t = useT();
  const notFound = statusOf(error) === 404;
  return (
    <FormCard title={t('taskForm.updateHeading')}>
      <div className="flex flex-col items-center gap-4">
        <ErrorState
          message={
            notFound ? errorMessage(error, t('taskForm.notFound')) : t('taskForm.loadFailed')
          }
          onRetry={notFound ? undefined : onRetry}
        />
        <Link to={paths.admin.tasks} className="text-sm font-medium text-blue-700 underline">
          {t('taskForm.backToTasks')}
        </Link>
      </div>
    </FormCard>
  );
}

function FormSkeleton() {
  const t = useT();
  return (
    <section
      aria-busy="true"
      aria-label={t('taskForm.loading')}
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
