import type { CreateTaskInput } from '@task-manager/shared';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { useLocation } from 'react-router-dom';
import { errorMessage } from '../../../lib/api-client';
import { useLabels } from '../../../lib/get-labels';
import { labelsRefused, survivingLabels } from '../api/deleted-labels';
import { useT } from '../../../lib/i18n';
import { useCreateTask } from '../api/create-task';
import { CreatedTaskLink } from '../components/created-task-link';
import { FormCard } from '../components/form-card';
import { TaskForm } from '../components/task-form';
import { useUserChoices } from '../hooks/use-user-choices';
import { taskDraftKey, useTaskDraft } from '../task-draft';
import { emptyTaskForm, isPastDay } from '../task-form-rules';
import { UpdateTaskForm } from './update-task-form';
import { notify } from '../../../lib/notify';

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

function CreateTask() {
  const t = useT();
  // A new key mounts a fresh, blank form after a task is created.
  const [formKey, setFormKey] = useState(0);
  // The task just created, linked above the fresh form (the form itself starts over).
  const [created, setCreated] = useState<{ _id: string; title: string } | null>(null);
  const createTask = useCreateTask();
  const userChoices = useUserChoices();
  const labels = useLabels();
  // What was typed here when the session ended: the first form starts from it, not the next.
  const restored = useTaskDraft(taskDraftKey())?.values ?? null;

  function submit(payload: CreateTaskInput) {
    // A due date already past is allowed (recording late work), but asked about first.
    if (isPastDay(String(payload.dueDate)) && !window.confirm(t('taskForm.pastDueQuestion')))
      return;
    send(payload);
  }

  function send(payload: CreateTaskInput) {
    createTask.mutate(payload, {
      onSuccess: ({ task }) => {
        toast.success(t('taskForm.created'));
        setCreated({ _id: task._id, title: task.title });
        setFormKey((key) => key + 1);
      },
      onError: (error) => {
        const failed = () => notify('error', errorMessage(error, t('taskForm.createFailed')));
        if (!labelsRefused(error)) return failed();
        // A label was deleted meanwhile: the task is created without it, and said so.
        void survivingLabels(payload.labels ?? [], labels.refetch).then((kept) => {
          if (!kept) return failed();
          send({ ...payload, labels: kept });
          toast(t('taskForm.labelsGone'));
        });
      },
    });
  }

  return (
    <FormCard title={t('taskForm.createHeading')}>
      {created && (
        <CreatedTaskLink label={t('taskForm.createdLink')} task={created} className="mb-4" />
      )}
      <TaskForm
        key={formKey}
        mode="create"
        draftKey={taskDraftKey()}
        restored={formKey === 0 ? restored : null}
        initialValues={emptyTaskForm}
        userChoices={userChoices}
        labelChoices={labels.data}
        pending={createTask.isPending}
        onSubmit={submit}
      />
    </FormCard>
  );
}
