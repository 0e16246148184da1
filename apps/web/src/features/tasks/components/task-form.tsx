import {
  TASK_PRIORITIES,
  type ChecklistEntry,
  type CreateTaskInput,
  type Label,
  type TaskPriority,
} from '@task-manager/shared';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Field, FormError, inputClass, TextField } from '../../../components/ui/field';
import { taskFormProblem, toTaskPayload, type TaskFormValues } from '../task-form-rules';
import { AttachmentsEditor } from './attachments-editor';
import { ChecklistEditor } from './checklist-editor';
import { LabelPicker } from './label-picker';
import { UserPicker, type UserChoices } from './user-picker';

/**
 * The Create/Update Task form. It checks the payload with the shared schema (first failure in
 * red under the form, nothing sent) and hands a valid payload to `onSubmit`.
 */
export function TaskForm({
  mode,
  initialValues,
  existingChecklist,
  userChoices,
  labelChoices = [],
  pending,
  onSubmit,
}: {
  mode: 'create' | 'update';
  initialValues: TaskFormValues;
  /** In edit mode, the stored items: matching texts keep their completed state. */
  existingChecklist?: readonly ChecklistEntry[];
  userChoices: UserChoices;
  /** Every label, to choose the task's among (none: no label picker). */
  labelChoices?: readonly Label[];
  pending: boolean;
  onSubmit: (payload: CreateTaskInput) => void;
}) {
  const [values, setValues] = useState(initialValues);
  const [error, setError] = useState<string | null>(null);
  const descriptionId = useId();
  const priorityId = useId();

  function set<K extends keyof TaskFormValues>(field: K, value: TaskFormValues[K]) {
    setValues((current) => ({ ...current, [field]: value }));
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const payload = toTaskPayload(values, existingChecklist);
    const problem = taskFormProblem(payload);
    setError(problem);
    if (!problem) onSubmit(payload);
  }

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-5">
      <TextField
        label="Task Title"
        placeholder="Create App UI"
        value={values.title}
        onChange={(event) => set('title', event.target.value)}
      />
      <Field label="Description" htmlFor={descriptionId}>
        <textarea
          id={descriptionId}
          rows={4}
          placeholder="Describe task"
          value={values.description}
          onChange={(event) => set('description', event.target.value)}
          className={inputClass}
        />
      </Field>
      <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
        <Field label="Priority" htmlFor={priorityId}>
          <select
            id={priorityId}
            value={values.priority}
            onChange={(event) => set('priority', event.target.value as TaskPriority)}
            className={inputClass}
          >
            {TASK_PRIORITIES.map((priority) => (
              <option key={priority} value={priority}>
                {priority}
              </option>
            ))}
          </select>
        </Field>
        <TextField
          label="Due Date"
          type="date"
          value={values.dueDate}
          onChange={(event) => set('dueDate', event.target.value)}
        />
      </div>
      <UserPicker
        {...userChoices}
        selected={values.assignees}
        onChange={(people) => set('assignees', people)}
      />
      <LabelPicker
        labels={labelChoices}
        selected={values.labels}
        onChange={(labels) => set('labels', labels)}
      />
      <ChecklistEditor items={values.checklist} onChange={(items) => set('checklist', items)} />
      <AttachmentsEditor
        links={values.attachments}
        onChange={(links) => set('attachments', links)}
      />
      <FormError message={error} />
      <Button type="submit" disabled={pending} aria-busy={pending} className="w-full">
        {mode === 'create' ? 'CREATE TASK' : 'UPDATE TASK'}
      </Button>
    </form>
  );
}
