import { z } from 'zod';
import { validationMessages as m } from '../messages.js';
import {
  idSchema,
  isoDateTime,
  MAX_LINK_LENGTH,
  normalizeWebLink,
  sendsAnyField,
  textSchema,
} from './common.js';
import { taskFileSchema } from './file.js';
import { labelSchema, taskLabelIdsSchema } from './label.js';
import { pageCursorSchema, pageLimitSchema } from './pagination.js';

export const TASK_PRIORITIES = ['Low', 'Medium', 'High'] as const;
export const TASK_STATUSES = ['Pending', 'In Progress', 'Completed'] as const;

export const prioritySchema = z
  .enum(TASK_PRIORITIES, { error: m.invalidPriority })
  .meta({ id: 'TaskPriority' });
export const statusSchema = z
  .enum(TASK_STATUSES, { error: m.invalidStatus })
  .meta({ id: 'TaskStatus', description: 'Follows the checklist: see `progress`.' });
export type TaskPriority = z.infer<typeof prioritySchema>;
export type TaskStatus = z.infer<typeof statusSchema>;

export const MAX_TODO_ITEMS = 200;
export const MAX_ASSIGNEES = 100;
export const MAX_ATTACHMENTS = 50;
/** The longest search (`q`) the task list takes, in characters. */
export const TASK_SEARCH_MAX = 500;

const todoText = textSchema({ max: 500, tooLong: m.todoTextTooLong, required: m.todoTextBlank });

/** A checklist item as sent by a client; `completed` may be left out (see the update rule). */
export const todoItemInputSchema = z.object({
  /**
   * Optional: the id of an existing item this one is (renamed or moved). It keeps that item's id,
   * tick and author; an unknown id is ignored and the text rule applies.
   */
  _id: z.string().max(64).optional().meta({
    description:
      'An existing item id: the item keeps its id and tick even when its text changes (optional)',
  }),
  text: todoText,
  completed: z.boolean().optional(),
});
export type TodoItemInput = z.infer<typeof todoItemInputSchema>;

const DUE_DATE_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

function isValidDueDate(value: string): boolean {
  const match = DUE_DATE_PATTERN.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // Date.parse rolls 2030-02-31 over into March: check the calendar date itself.
  const calendar = new Date(Date.UTC(year, month - 1, day));
  if (calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day) return false;
  const time = Date.parse(value);
  return Number.isFinite(time) && year >= 1970 && time < Date.UTC(10000, 0, 1);
}

/**
 * A due date: a calendar date (YYYY-MM-DD, taken as midnight UTC) or an ISO date-time, between
 * the years 1970 and 9999 so that stored ISO strings sort as dates.
 */
export const dueDateSchema = z
  .string({ error: m.dueDateRequired })
  // abort: an empty or over-long value gets one message, not also "must be a valid date"; the
  // length first, so the pattern never runs over a long value.
  .max(40, { error: m.dueDateInvalid, abort: true })
  .trim()
  .min(1, { error: m.dueDateRequired, abort: true })
  .refine(isValidDueDate, { error: m.dueDateInvalid })
  .transform((value) => new Date(value).toISOString());

const assignedToSchema = z
  .array(idSchema, { error: m.notAssigned })
  .min(1, { error: m.notAssigned })
  .max(MAX_ASSIGNEES, { error: m.tooManyAssignees })
  .transform((ids) => [...new Set(ids)]);

const todoChecklistSchema = z
  .array(todoItemInputSchema, { error: m.todoRequired })
  .min(1, { error: m.todoRequired })
  .max(MAX_TODO_ITEMS, { error: m.tooManyTodos });

/**
 * Blank links are dropped (spec section 5); the rest must be safe web links, and are stored as
 * the absolute http(s) URLs they stand for ("example.com/a" becomes "https://example.com/a").
 */
const attachmentsSchema = z
  .array(
    z
      .string({ error: m.invalidAttachment })
      .max(MAX_LINK_LENGTH, { error: m.invalidAttachment, abort: true }),
    { error: m.invalidAttachment },
  )
  .transform((links, ctx) => {
    const normalized: string[] = [];
    for (const link of links) {
      if (link.trim() === '') continue;
      const url = normalizeWebLink(link.trim());
      if (url === undefined) {
        ctx.addIssue({ code: 'custom', message: m.invalidAttachment });
        return z.NEVER;
      }
      normalized.push(url);
    }
    return normalized;
  })
  .refine((links) => links.length <= MAX_ATTACHMENTS, { error: m.tooManyAttachments });

/**
 * Field order is the order of the checks in spec section 5: the first issue is the message shown.
 */
export const createTaskSchema = z.object({
  title: textSchema({ max: 200, tooLong: m.titleTooLong, required: m.titleRequired }),
  description: textSchema({
    max: 10000,
    tooLong: m.descriptionTooLong,
    required: m.descriptionRequired,
  }),
  dueDate: dueDateSchema,
  assignedTo: assignedToSchema,
  todoChecklist: todoChecklistSchema,
  priority: prioritySchema.default('Low'),
  attachments: attachmentsSchema.default([]),
  labels: taskLabelIdsSchema.default([]),
});
export type CreateTaskInput = z.input<typeof createTaskSchema>;
export type CreateTaskData = z.output<typeof createTaskSchema>;

/** An update may send any subset of the fields; each one sent obeys the create rules. */
export const updateTaskSchema = z
  .object({
    title: createTaskSchema.shape.title.optional(),
    description: createTaskSchema.shape.description.optional(),
    dueDate: dueDateSchema.optional(),
    assignedTo: assignedToSchema.optional(),
    todoChecklist: todoChecklistSchema.optional(),
    priority: prioritySchema.optional(),
    attachments: attachmentsSchema.optional(),
    labels: taskLabelIdsSchema.optional(),
  })
  .refine(sendsAnyField(), {
    error: m.nothingToUpdate,
  });
export type UpdateTaskInput = z.input<typeof updateTaskSchema>;
export type UpdateTaskData = z.output<typeof updateTaskSchema>;

export const updateChecklistSchema = z.object({ todoChecklist: todoChecklistSchema });
export type UpdateChecklistInput = z.input<typeof updateChecklistSchema>;

/**
 * One item ticked or unticked (PATCH /api/tasks/:id/todo/:itemId). Strict: a text or any other
 * field sent here would otherwise be silently ignored, and the caller would think it was saved.
 */
export const updateChecklistItemSchema = z.strictObject(
  { completed: z.boolean({ error: m.completedNotBoolean }) },
  { error: m.checklistItemOnlyCompleted },
);
export type UpdateChecklistItemInput = z.input<typeof updateChecklistItemSchema>;

export const updateStatusSchema = z.object({ status: statusSchema });

/** A checklist item added to a task (POST /api/tasks/:id/todo). */
export const addChecklistItemSchema = z.object({ text: todoText });
/** A checklist item renamed (PUT /api/tasks/:id/todo/:itemId): its tick stays. */
export const renameChecklistItemSchema = z.object({ text: todoText });
/** The checklist in a new order (PUT /api/tasks/:id/todo/order): every item id, once. */
export const reorderChecklistSchema = z.object({
  ids: z
    .array(z.string({ error: m.checklistOrderIds }).max(64, { error: m.checklistOrderIds }), {
      error: m.checklistOrderIds,
    })
    .max(1000, { error: m.checklistOrderIds }),
});

export const TASK_DUE_FILTERS = ['overdue', 'today', 'week', 'later'] as const;
export type TaskDueFilter = (typeof TASK_DUE_FILTERS)[number];
export const TASK_SORTS = ['createdAt', 'dueDate', 'priority', 'title', 'updatedAt'] as const;
export type TaskSort = (typeof TASK_SORTS)[number];
/** `card`: the lean shape a card needs (taskCardSchema); absent or `full`: whole tasks. */
export const TASK_LIST_VIEWS = ['full', 'card'] as const;
export type TaskListView = (typeof TASK_LIST_VIEWS)[number];

/** True for a time zone name this runtime knows (IANA, e.g. Europe/Paris, or UTC). */
function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/**
 * A query parameter holding a comma-separated list ("High,Medium"), each entry checked by `item`;
 * duplicates dropped, at most 50 entries; empty means no filter.
 */
function commaList<T extends z.ZodType<string>>(item: T, message: string) {
  return z
    .string({ error: message })
    .max(2000, { error: message, abort: true })
    .optional()
    .transform((value, ctx): Array<z.output<T>> | undefined => {
      if (value === undefined || value.trim() === '') return undefined;
      const entries = [...new Set(value.split(',').map((entry) => entry.trim()))];
      const parsed: Array<z.output<T>> = [];
      for (const entry of entries) {
        const result = item.safeParse(entry);
        if (!result.success || entries.length > 50) {
          ctx.addIssue({ code: 'custom', message });
          return z.NEVER;
        }
        parsed.push(result.data);
      }
      return parsed;
    });
}

/**
 * A bound of the list's due-date range: an ISO 8601 date-time (any offset), answered as the UTC
 * instant that stored due dates compare with (fixed-width ISO text).
 */
function dueBound(error: string) {
  return z
    .string({ error })
    .max(40, { error, abort: true })
    .pipe(z.iso.datetime({ offset: true, error }))
    .transform((value) => new Date(value).toISOString())
    .optional();
}

export const taskListQuerySchema = z.object({
  status: z
    .union([statusSchema, z.literal(''), z.literal('All')], { error: m.invalidStatus })
    .optional()
    .transform((value) => (value === '' || value === 'All' ? undefined : value)),
  limit: pageLimitSchema,
  cursor: pageCursorSchema,
  q: textSchema({ max: TASK_SEARCH_MAX, tooLong: m.taskSearchTooLong })
    .optional()
    .transform((value) => (value === '' ? undefined : value)),
  assignee: z
    .union([z.literal('me'), z.uuid({ error: m.invalidAssigneeFilter })], {
      error: m.invalidAssigneeFilter,
    })
    .optional(),
  priority: commaList(prioritySchema, m.invalidPriorityFilter),
  label: commaList(z.uuid(), m.invalidLabelFilter),
  due: z.enum(TASK_DUE_FILTERS, { error: m.invalidDueFilter }).optional(),
  dueFrom: dueBound(m.invalidDueFrom),
  dueBefore: dueBound(m.invalidDueBefore),
  tz: z
    .string({ error: m.invalidTimeZone })
    .max(64, { error: m.invalidTimeZone, abort: true })
    .refine(isTimeZone, { error: m.invalidTimeZone })
    .default('UTC'),
  sort: z.enum(TASK_SORTS, { error: m.invalidSort }).default('createdAt'),
  order: z.enum(['asc', 'desc'], { error: m.invalidOrder }).optional(),
  view: z.enum(TASK_LIST_VIEWS, { error: m.invalidTaskView }).optional(),
});
export type TaskListQuery = z.output<typeof taskListQuerySchema>;

export const todoItemSchema = z
  .object({
    _id: z.string().meta({ description: 'The item id (a UUID), kept while its text stays' }),
    text: z.string(),
    completed: z.boolean(),
  })
  .meta({ id: 'TodoItem', description: 'One checklist item.' });
export type TodoItem = z.infer<typeof todoItemSchema>;

export const assigneeSchema = z
  .object({
    _id: z.string(),
    name: z.string(),
    email: z.string(),
    profileImageUrl: z.string().nullable().meta({
      description: 'The photo: a path relative to this server (`/api/images/<id>`); null: none',
    }),
    deactivated: z.literal(true).optional().meta({
      description: 'Present (true) only when an admin deactivated this person',
    }),
  })
  .meta({ id: 'Assignee', description: 'A user a task is assigned to.' });
export type Assignee = z.infer<typeof assigneeSchema>;

export const taskSchema = z
  .object({
    _id: z.string().meta({ description: 'The task id (a UUID)' }),
    title: z.string(),
    description: z.string(),
    priority: prioritySchema,
    status: statusSchema,
    progress: z
      .number()
      .int()
      .min(0)
      .max(100)
      .meta({ description: 'round(completed items / items × 100)' }),
    dueDate: isoDateTime,
    createdBy: z
      .string()
      .nullable()
      .meta({ description: 'Id of the admin who created it; null once that user is deleted' }),
    assignedTo: z.array(assigneeSchema).meta({ description: 'In the order they were assigned' }),
    todoChecklist: z.array(todoItemSchema),
    attachments: z.array(z.string()).meta({ description: 'Web links, in the order given' }),
    completedTodoCount: z.number().int(),
    labels: z.array(labelSchema).meta({ description: 'Its labels, by name' }),
    files: z
      .array(taskFileSchema)
      .meta({ description: 'Uploaded files, oldest first (GET /api/files/{id})' }),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: 'Task', description: 'A task with its assignees, checklist and attachments.' });
export type Task = z.infer<typeof taskSchema>;

export const statusSummarySchema = z
  .object({
    all: z.number().int(),
    pendingTasks: z.number().int(),
    inProgressTasks: z.number().int(),
    completedTasks: z.number().int(),
  })
  .meta({
    id: 'StatusSummary',
    description:
      'Counts of the tasks the caller can see that match the other filters (all but `status`): ' +
      "each status tab's count is the length of its list.",
  });

export const taskListResponseSchema = z
  .object({
    tasks: z
      .array(taskSchema)
      .meta({ description: 'One page, newest first, filtered by `status`' }),
    statusSummary: statusSummarySchema,
    nextCursor: z.string().nullable().meta({
      description: 'Send as `cursor` for the next page; null on the last page',
    }),
  })
  .meta({ id: 'TaskList' });
export type TaskListResponse = z.infer<typeof taskListResponseSchema>;

/** Characters of the description a card carries (`?view=card`): a card shows three lines. */
export const CARD_DESCRIPTION_LENGTH = 300;

/**
 * A task as a card shows it (`GET /api/tasks?view=card`, for this project's web app): the task
 * without its checklist texts, links and files, with their counts instead. The default answer
 * keeps the full task for other clients.
 */
export const taskCardSchema = taskSchema
  .omit({ todoChecklist: true, attachments: true, files: true, description: true })
  .extend({
    description: z.string().meta({
      description: `The description's first ${CARD_DESCRIPTION_LENGTH} characters, then … when cut`,
    }),
    todoDone: z.number().int().meta({ description: 'Checklist items done' }),
    todoTotal: z.number().int().meta({ description: 'Checklist items' }),
    attachmentCount: z.number().int().meta({ description: 'Web links' }),
    fileCount: z.number().int().meta({ description: 'Uploaded files' }),
  })
  .meta({ id: 'TaskCard', description: 'A task as a card shows it: counts instead of lists.' });
export type TaskCard = z.infer<typeof taskCardSchema>;

export const taskCardListResponseSchema = taskListResponseSchema
  .extend({
    tasks: z.array(taskCardSchema).meta({ description: 'One page, as cards' }),
  })
  .meta({ id: 'TaskCardList' });
export type TaskCardListResponse = z.infer<typeof taskCardListResponseSchema>;

/** The media type of the card view's answer (`?view=card`). */
export const TASK_CARDS_MEDIA_TYPE = 'application/vnd.task-manager.cards+json';

/** The start of a description as a card carries it, never cutting a character in two. */
export function cardDescription(description: string): string {
  if (description.length <= CARD_DESCRIPTION_LENGTH) return description;
  let end = CARD_DESCRIPTION_LENGTH;
  const last = description.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${description.slice(0, end).trimEnd()}…`;
}

export const taskMutationResponseSchema = z
  .object({ message: z.string(), task: taskSchema })
  .meta({ id: 'TaskMutationResponse', description: 'A confirmation and the task as it now is.' });
export type TaskMutationResponse = z.infer<typeof taskMutationResponseSchema>;

/** 409 of PUT /api/tasks/:id sent with If-Match of an old version: the task as it now is. */
export const taskConflictResponseSchema = z
  .object({ message: z.string(), code: z.literal('conflict'), task: taskSchema })
  .meta({
    id: 'TaskConflict',
    description: 'The task changed since the version sent in If-Match: here it is as it now is.',
  });
export type TaskConflictResponse = z.infer<typeof taskConflictResponseSchema>;
export const messageResponseSchema = z
  .object({ message: z.string() })
  .meta({ id: 'MessageResponse', description: 'A confirmation, e.g. of a deletion.' });
