import {
  createTaskSchema,
  TASK_PRIORITIES,
  type CreateTaskInput,
  type Task,
  type TaskPriority,
} from '@task-manager/shared';
import { dueDateDay } from '../../lib/format';
import { firstIssue } from '../../lib/validation';
import {
  draftFromItems,
  draftToInput,
  newDraftItem,
  type ChecklistDraftItem,
} from './checklist-draft';

/** Someone the task is assigned to, as far as the form needs to show them. */
export interface AssigneeOption {
  _id: string;
  name: string;
  email?: string;
  profileImageUrl?: string | null;
}

/** What the Create/Update Task form holds while it is being filled in. */
export interface TaskFormValues {
  title: string;
  description: string;
  priority: TaskPriority;
  /** As the date input gives it: YYYY-MM-DD, or '' when not chosen. */
  dueDate: string;
  assignees: AssigneeOption[];
  checklist: ChecklistDraftItem[];
  attachments: string[];
  /** The ids of the task's labels. */
  labels: string[];
}

export const emptyTaskForm: TaskFormValues = {
  title: '',
  description: '',
  priority: 'Low',
  dueDate: '',
  assignees: [],
  checklist: [],
  attachments: [],
  labels: [],
};

const isString = (value: unknown): value is string => typeof value === 'string';
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The form's values kept when a session ended (form-drafts.ts), read back: whatever does not
 * have the form's shape is dropped rather than trusted (`null` when nothing usable is left).
 * Items typed but not stored get fresh keys, as if typed again.
 */
export function formFromDraft(value: unknown): TaskFormValues | null {
  if (!isRecord(value) || !isString(value.title)) return null;
  const list = (field: string) => (Array.isArray(value[field]) ? (value[field] as unknown[]) : []);
  const priority = TASK_PRIORITIES.find((known) => known === value.priority) ?? 'Low';
  return {
    title: value.title,
    description: isString(value.description) ? value.description : '',
    priority,
    dueDate:
      isString(value.dueDate) && /^(\d{4}-\d{2}-\d{2})?$/.test(value.dueDate) ? value.dueDate : '',
    assignees: list('assignees')
      .filter(isRecord)
      .filter((person) => isString(person._id) && isString(person.name))
      .map((person) => ({
        _id: person._id as string,
        name: person.name as string,
        ...(isString(person.email) ? { email: person.email } : {}),
        profileImageUrl: isString(person.profileImageUrl) ? person.profileImageUrl : null,
      })),
    checklist: list('checklist')
      .filter(isRecord)
      .filter((item) => isString(item.text))
      .map((item) =>
        isString(item._id)
          ? {
              key: item._id,
              _id: item._id,
              text: item.text as string,
              completed: item.completed === true,
            }
          : newDraftItem(item.text as string),
      ),
    attachments: list('attachments').filter(isString),
    labels: list('labels').filter(isString),
  };
}

/** The form filled with a stored task, for edit mode. */
export function formFromTask(task: Task): TaskFormValues {
  return {
    title: task.title,
    description: task.description,
    priority: task.priority,
    dueDate: dueDateDay(task.dueDate),
    assignees: task.assignedTo.map(({ _id, name, email, profileImageUrl }) => ({
      _id,
      name,
      email,
      profileImageUrl,
    })),
    checklist: draftFromItems(task.todoChecklist),
    attachments: [...task.attachments],
    labels: task.labels.map((label) => label._id),
  };
}

/** A checklist item's number as the form shows it: 01, 02, … 10, 11. */
export function itemNumber(index: number): string {
  return String(index + 1).padStart(2, '0');
}

/** The list with `text` added at the end; blank (after trimming) text is ignored. */
export function addEntry(list: readonly string[], text: string): string[] {
  const trimmed = text.trim();
  return trimmed ? [...list, trimmed] : [...list];
}

export function removeEntry<T>(list: readonly T[], index: number): T[] {
  return list.filter((_, position) => position !== index);
}

/**
 * A date input's day as an ISO date-time: midnight UTC of that day, the same instant the API
 * stores for a bare date, so the day reads the same in every time zone (see formatDueDate).
 */
export function dueDateToIso(day: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return day;
  return `${day}T00:00:00.000Z`;
}

/** The payload of POST and PUT /api/tasks (spec section 3, task form payload). */
export function toTaskPayload(values: TaskFormValues): CreateTaskInput {
  return {
    title: values.title,
    description: values.description,
    priority: values.priority,
    dueDate: dueDateToIso(values.dueDate),
    assignedTo: values.assignees.map((person) => person._id),
    // Stored items go with their ids: renamed or moved, they keep their ticks.
    todoChecklist: draftToInput(values.checklist),
    attachments: values.attachments.map((link) => link.trim()).filter(Boolean),
    labels: values.labels,
  };
}

/**
 * The PUT of an edit of `stored`: the form shows a due day, so a day left as it was keeps the
 * stored instant (a time of day set through the API), and saving another field neither moves
 * the due date nor tells the assignees it changed.
 */
export function toUpdatePayload(values: TaskFormValues, stored: Task): CreateTaskInput {
  const payload = toTaskPayload(values);
  return values.dueDate === dueDateDay(stored.dueDate)
    ? { ...payload, dueDate: stored.dueDate }
    : payload;
}

/**
 * The first rule the payload breaks, in the order of spec section 5 (the shared schema lists its
 * fields in that order), or null when it may be sent.
 */
export function taskFormProblem(payload: CreateTaskInput): string | null {
  return firstIssue(createTaskSchema, payload);
}

/** Whether a due date (its calendar day, YYYY-MM-DD first) is before today where the person is. */
export function isPastDay(dueDate: string, now = new Date()): boolean {
  const pad = (value: number) => String(value).padStart(2, '0');
  const today = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  return /^\d{4}-\d{2}-\d{2}/.test(dueDate) && dueDate.slice(0, 10) < today;
}
