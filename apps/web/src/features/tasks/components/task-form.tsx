import {
  TASK_PRIORITIES,
  type CreateTaskInput,
  type Label,
  type Task,
  type TaskPriority,
} from '@task-manager/shared';
import { useId, useMemo, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Field, FormError, inputClass, TextField } from '../../../components/ui/field';
import { useT } from '../../../lib/i18n';
import { useUnsavedChangesPrompt } from '../hooks/use-unsaved-changes-prompt';
import { sameForm } from '../task-conflict';
import { useKeepTaskDraft } from '../task-draft';
import { taskFormProblem, toTaskPayload, type TaskFormValues } from '../task-form-rules';
import { AttachmentsEditor } from './attachments-editor';
import { ChecklistEditor } from './checklist-editor';
import { LabelPicker } from './label-picker';
import { UserPicker, type UserChoices } from './user-picker';

/** A priority's words (the value sent stays the API's Low, Medium or High). */
const PRIORITY_LABELS = {
  Low: 'filters.low',
  Medium: 'filters.medium',
  High: 'filters.high',
} as const satisfies Record<TaskPriority, string>;

/**
 * The Create/Update Task form. It checks the payload with the shared schema (first failure in
 * red under the form, nothing sent) and hands a valid payload, and the values it came from, to
 * `onSubmit`. While it holds changes, leaving the page asks first, and if the session ends
 * (a 401) they are kept under `draftKey` and given back when the same person signs in again.
 */
export function TaskForm({
  mode,
  draftKey,
  draftBase,
  restored,
  initialValues,
  tickedBy,
  userChoices,
  labelChoices = [],
  pending,
  submitLabel,
  onSubmit,
}: {
  mode: 'create' | 'update';
  /** Where what is typed is kept if the session ends: one key per task, and one for a new task. */
  draftKey: string;
  /** The version of the task the form edits, kept with the values. */
  draftBase?: Task;
  /** Values kept when the session ended: the form starts from them and says so. */
  restored?: TaskFormValues | null;
  initialValues: TaskFormValues;
  /** In edit mode, who ticked the ticked items (item id to name), as far as known. */
  tickedBy?: ReadonlyMap<string, string>;
  userChoices: UserChoices;
  /** Every label, to choose the task's among (none: no label picker). */
  labelChoices?: readonly Label[];
  pending: boolean;
  /** The submit button's words, when not the mode's own. */
  submitLabel?: string;
  onSubmit: (payload: CreateTaskInput, values: TaskFormValues) => void;
}) {
  const t = useT();
  const [values, setValues] = useState(restored ?? initialValues);
  const [error, setError] = useState<string | null>(null);
  const descriptionId = useId();
  const priorityId = useId();
  const changed = !sameForm(values, initialValues);
  useUnsavedChangesPrompt(changed);
  const draft = useMemo(() => ({ values, base: draftBase }), [values, draftBase]);
  useKeepTaskDraft(draftKey, changed, draft);

  function set<K extends keyof TaskFormValues>(field: K, value: TaskFormValues[K]) {
    setValues((current) => ({ ...current, [field]: value }));
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const payload = toTaskPayload(values);
    const problem = taskFormProblem(payload);
    setError(problem);
    if (!problem) onSubmit(payload, values);
  }

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-5">
      {restored && (
        <p role="status" className="rounded-md bg-blue-50 px-3 py-2 text-sm text-blue-950">
          {t('taskForm.draftRestored')}
        </p>
      )}
      <TextField
        label={t('taskForm.title')}
        placeholder={t('taskForm.titlePlaceholder')}
        value={values.title}
        onChange={(event) => set('title', event.target.value)}
      />
      <Field label={t('taskForm.description')} htmlFor={descriptionId}>
        <textarea
          id={descriptionId}
          rows={4}
          placeholder={t('taskForm.descriptionPlaceholder')}
          value={values.description}
          onChange={(event) => set('description', event.target.value)}
          className={inputClass}
        />
      </Field>
      <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
        <Field label={t('taskForm.priority')} htmlFor={priorityId}>
          <select
            id={priorityId}
            value={values.priority}
            onChange={(event) => set('priority', event.target.value as TaskPriority)}
            className={inputClass}
          >
            {TASK_PRIORITIES.map((priority) => (
              <option key={priority} value={priority}>
                {t(PRIORITY_LABELS[priority])}
              </option>
            ))}
          </select>
        </Field>
        <TextField
          label={t('taskForm.dueDate')}
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
      <ChecklistEditor
        items={values.checklist}
        tickedBy={tickedBy}
        onChange={(items) => set('checklist', items)}
      />
      <AttachmentsEditor
        links={values.attachments}
        onChange={(links) => set('attachments', links)}
      />
      <FormError message={error} />
      <Button type="submit" disabled={pending} aria-busy={pending} className="w-full">
        {submitLabel ?? (mode === 'create' ? t('taskForm.create') : t('taskForm.update'))}
      </Button>
    </form>
  );
}
