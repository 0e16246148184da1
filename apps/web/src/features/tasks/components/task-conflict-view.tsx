import type { Label, Task } from '@task-manager/shared';
import { useId, useState, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { FormError } from '../../../components/ui/field';
import { useT } from '../../../lib/i18n';
import { useUnsavedChangesPrompt } from '../hooks/use-unsaved-changes-prompt';
import {
  resolveConflict,
  taskConflicts,
  type ConflictChoice,
  type ConflictField,
  type FieldConflict,
} from '../task-conflict';
import { formFromTask, type TaskFormValues } from '../task-form-rules';

/**
 * Shown instead of the edit form when saving met someone else's change (409): every field where
 * the person's version and the current one differ, side by side, each with a choice (their own
 * edit, else the other person's change, is chosen at first). "Keep mine" saves the choices over
 * the current version; "Take theirs" drops the person's changes and starts again from it.
 */
export function TaskConflictView({
  base,
  mine,
  current,
  labels,
  pending,
  problem,
  onKeepMine,
  onTakeTheirs,
}: {
  /** The version the person started from. */
  base: TaskFormValues;
  /** What they were saving. */
  mine: TaskFormValues;
  /** The task as it now is. */
  current: Task;
  labels: readonly Label[];
  pending: boolean;
  /** Why the chosen values cannot be saved, if they cannot. */
  problem: string | null;
  onKeepMine: (values: TaskFormValues) => void;
  onTakeTheirs: () => void;
}) {
  const t = useT();
  const headingId = useId();
  const theirs = formFromTask(current);
  const conflicts = taskConflicts(base, mine, theirs);
  const [choices, setChoices] = useState<Partial<Record<ConflictField, ConflictChoice>>>(() =>
    Object.fromEntries(conflicts.map((conflict) => [conflict.field, conflict.suggested])),
  );
  // The person's changes are only here until they choose: leaving still asks.
  useUnsavedChangesPrompt(true);

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4">
      <div role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-4">
        <h2 id={headingId} className="text-base font-semibold text-amber-950">
          {t('taskConflict.heading')}
        </h2>
        <p className="mt-1 text-sm text-amber-950">{t('taskConflict.explain')}</p>
      </div>
      {conflicts.map((conflict) => (
        <ConflictChoiceGroup
          key={conflict.field}
          conflict={conflict}
          choice={choices[conflict.field] ?? conflict.suggested}
          onChoose={(choice) => setChoices((now) => ({ ...now, [conflict.field]: choice }))}
          mine={<FieldValue values={mine} field={conflict.field} labels={labels} />}
          theirs={<FieldValue values={theirs} field={conflict.field} labels={labels} />}
        />
      ))}
      <FormError message={problem} />
      <div className="flex flex-wrap gap-3">
        <Button
          disabled={pending}
          aria-busy={pending}
          onClick={() => onKeepMine(resolveConflict(mine, theirs, current, choices))}
        >
          {t('taskConflict.keepMine')}
        </Button>
        <Button variant="secondary" disabled={pending} onClick={onTakeTheirs}>
          {t('taskConflict.takeTheirs')}
        </Button>
      </div>
    </section>
  );
}

function ConflictChoiceGroup({
  conflict,
  choice,
  onChoose,
  mine,
  theirs,
}: {
  conflict: FieldConflict;
  choice: ConflictChoice;
  onChoose: (choice: ConflictChoice) => void;
  mine: ReactNode;
  theirs: ReactNode;
}) {
  const t = useT();
  const name = useId();
  const who =
    conflict.changedByMe && conflict.changedByThem
      ? t('taskConflict.changedByBoth')
      : conflict.changedByThem
        ? t('taskConflict.changedByThem')
        : t('taskConflict.changedByMe');
  // Each radio is named Mine or Theirs, and described by the value it keeps.
  const option = (value: ConflictChoice, content: ReactNode) => (
    <label
      className={`flex min-w-0 flex-1 cursor-pointer gap-2 rounded-md border p-3 text-sm ${
        choice === value ? 'border-blue-600 bg-blue-50' : 'border-slate-200 bg-white'
      }`}
    >
      <input
        type="radio"
        name={name}
        aria-labelledby={`${name}-${value}`}
        aria-describedby={`${name}-${value}-value`}
        checked={choice === value}
        onChange={() => onChoose(value)}
        className="mt-0.5 accent-blue-700"
      />
      <span className="flex min-w-0 flex-col gap-1">
        <span id={`${name}-${value}`} className="font-medium text-slate-900">
          {t(`taskConflict.${value}`)}
        </span>
        <span id={`${name}-${value}-value`} className="break-words text-slate-800">
          {content}
        </span>
      </span>
    </label>
  );
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium text-slate-800">
        {t(`taskConflict.fields.${conflict.field}`)}{' '}
        <span className="font-normal text-slate-600">({who})</span>
      </legend>
      <div className="flex flex-col gap-2 sm:flex-row">
        {option('mine', mine)}
        {option('theirs', theirs)}
      </div>
    </fieldset>
  );
}

/** One field's value as a person reads it. */
function FieldValue({
  values,
  field,
  labels,
}: {
  values: TaskFormValues;
  field: ConflictField;
  labels: readonly Label[];
}) {
  const t = useT();
  const list = (entries: string[]) =>
    entries.length === 0 ? (
      t('taskConflict.empty')
    ) : (
      <ol className="list-inside list-decimal">
        {entries.map((entry, index) => (
          <li key={index}>{entry}</li>
        ))}
      </ol>
    );
  switch (field) {
    case 'assignees':
      return list(values.assignees.map((person) => person.name));
    case 'labels':
      return list(values.labels.map((id) => labels.find((label) => label._id === id)?.name ?? id));
    case 'checklist':
      return list(values.checklist.map((item) => item.text));
    case 'attachments':
      return list(values.attachments.filter((link) => link.trim()));
    default: {
      const text = values[field];
      return (
        <span className="whitespace-pre-line">{text.trim() ? text : t('taskConflict.empty')}</span>
      );
    }
  }
}
