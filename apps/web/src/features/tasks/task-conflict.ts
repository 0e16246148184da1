import type { Task } from '@task-manager/shared';
import { withCurrentTicks } from './checklist-draft';
import type { TaskFormValues } from './task-form-rules';

/** The fields of the task form that two people can both have changed. */
export const CONFLICT_FIELDS = [
  'title',
  'description',
  'priority',
  'dueDate',
  'assignees',
  'labels',
  'checklist',
  'attachments',
] as const;
export type ConflictField = (typeof CONFLICT_FIELDS)[number];
export type ConflictChoice = 'mine' | 'theirs';

/** One field on which the person's version and the current one differ. */
export interface FieldConflict {
  field: ConflictField;
  /** The person changed it since they loaded the task. */
  changedByMe: boolean;
  /** Someone else changed it since. */
  changedByThem: boolean;
  /** What is kept unless the person chooses: their own edit, else the other person's. */
  suggested: ConflictChoice;
}

/**
 * A field's value in a form that compares equal when it means the same: assignees and labels
 * as sets, checklist texts and links in order (ticks are not edited in the form).
 */
function comparable(values: TaskFormValues, field: ConflictField): string {
  switch (field) {
    case 'assignees':
      return JSON.stringify(values.assignees.map((person) => person._id).sort());
    case 'labels':
      return JSON.stringify([...values.labels].sort());
    case 'checklist':
      return JSON.stringify(values.checklist.map((item) => item.text.trim()));
    case 'attachments':
      return JSON.stringify(values.attachments.map((link) => link.trim()).filter(Boolean));
    default:
      return values[field].trim();
  }
}

export function sameField(a: TaskFormValues, b: TaskFormValues, field: ConflictField): boolean {
  return comparable(a, field) === comparable(b, field);
}

/** Whether two forms hold the same task (every field means the same). */
export function sameForm(a: TaskFormValues, b: TaskFormValues): boolean {
  return CONFLICT_FIELDS.every((field) => sameField(a, b, field));
}

/**
 * The fields that differ between what the person is saving (`mine`, edited from `base`) and the
 * task as it now is (`theirs`), in form order.
 */
export function taskConflicts(
  base: TaskFormValues,
  mine: TaskFormValues,
  theirs: TaskFormValues,
): FieldConflict[] {
  return CONFLICT_FIELDS.filter((field) => !sameField(mine, theirs, field)).map((field) => {
    const changedByMe = !sameField(base, mine, field);
    return {
      field,
      changedByMe,
      changedByThem: !sameField(base, theirs, field),
      suggested: changedByMe ? 'mine' : 'theirs',
    };
  });
}

/**
 * The form values to save over the current task: each field from the version chosen for it
 * (a field not listed is the same in both, or taken from theirs). The checklist shows the
 * current ticks either way.
 */
export function resolveConflict(
  mine: TaskFormValues,
  theirs: TaskFormValues,
  current: Task,
  choices: Partial<Record<ConflictField, ConflictChoice>>,
): TaskFormValues {
  const resolved = { ...theirs };
  for (const field of CONFLICT_FIELDS) {
    if (choices[field] === 'mine') Object.assign(resolved, { [field]: mine[field] });
  }
  return { ...resolved, checklist: withCurrentTicks(resolved.checklist, current.todoChecklist) };
}
