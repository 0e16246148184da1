import { z } from 'zod';
import {
  addChecklistItemSchema,
  apiMessages,
  createTaskSchema,
  dashboardResponseSchema,
  messageResponseSchema,
  renameChecklistItemSchema,
  reorderChecklistSchema,
  taskConflictResponseSchema,
  taskListQuerySchema,
  TASK_DUE_FILTERS,
  TASK_SORTS,
  taskListResponseSchema,
  taskCardListResponseSchema,
  TASK_CARDS_MEDIA_TYPE,
  TASK_LIST_VIEWS,
  taskMutationResponseSchema,
  taskSchema,
  updateChecklistItemSchema,
  updateChecklistSchema,
  updateStatusSchema,
  updateTaskSchema,
} from '@task-manager/shared';
import { defineEndpoint } from '../endpoint-deps.js';
import { pagingDoc } from '../openapi/paging.js';
import { errors, ok } from '../openapi/responses.js';
import { answeredNotModified } from './conditional.js';
import { TaskConflict, taskETag } from './service.js';

const taskId = { id: { notFound: apiMessages.taskNotFound, description: 'The task id' } };

/** The filters and sorts of GET /api/tasks (issue 22), as documented: each one optional. */
const listFiltersDoc = {
  q: z
    .string()
    .max(500)
    .optional()
    .meta({
      description:
        'Full-text search over title, description, checklist texts and comments: every word must match the ' +
        'start of a word ("deplo" finds "deployment"), ignoring case and accents. At most 500 ' +
        'characters.',
    }),
  assignee: z
    .string()
    .optional()
    .meta({
      description:
        'Only tasks assigned to this user id, or `me`. A member asking for someone else gets ' +
        'an empty page.',
    }),
  priority: z
    .string()
    .optional()
    .meta({ description: 'Comma-separated priorities (`High,Medium`): tasks with any of them' }),
  label: z
    .string()
    .optional()
    .meta({ description: 'Comma-separated label ids: tasks carrying any of them' }),
  due: z
    .enum(TASK_DUE_FILTERS)
    .optional()
    .meta({
      description:
        '`overdue`: due before now and not Completed. `today`: due from the start of today to ' +
        'the start of tomorrow. `week`: due from the start of today to the start of the 8th day ' +
        '(today and the next 6 days). `later`: due from the start of the 8th day on. Days are ' +
        'those of `tz`.',
    }),
  dueFrom: z.iso
    .datetime({ offset: true })
    .optional()
    .meta({
      description:
        'Only tasks due at or after this instant (ISO 8601 date-time, any offset), e.g. the ' +
        "first day of a calendar's month; combines with `due`",
    }),
  dueBefore: z.iso
    .datetime({ offset: true })
    .optional()
    .meta({
      description:
        'Only tasks due before this instant (ISO 8601 date-time, any offset); with `dueFrom`, ' +
        'a range such as a month',
    }),
  tz: z.string().optional().meta({
    description: "The caller's time zone for `due` (IANA name, e.g. `Europe/Paris`); default UTC",
  }),
  sort: z
    .enum(TASK_SORTS)
    .optional()
    .meta({
      description:
        'The order: `createdAt` (default), `updatedAt`, `dueDate`, `priority` (by rank, High ' +
        'highest, then newest first) or `title` (ignoring case). Ties are broken by id; every ' +
        'sort pages with `cursor`.',
    }),
  order: z
    .enum(['asc', 'desc'])
    .optional()
    .meta({
      description:
        'Default: `desc` for createdAt, updatedAt and priority (newest, latest, highest ' +
        'first), `asc` for dueDate and title (soonest, A first). A cursor is only good for the ' +
        'sort and order it came from.',
    }),
};
const tags = ['Tasks'];

/** How the task reads answer a conditional GET (issue 19). */
const CONDITIONAL_GET =
  'Conditional: the answer carries an ETag (and `Cache-Control: private, no-cache`); sent back ' +
  'as If-None-Match, it is answered 304 with no body while nothing the answer shows changed.';

const cacheControlHeader = z
  .string()
  .meta({ description: '`private, no-cache`: keep it, but ask again (If-None-Match) each time' });

/** A 200 answer with the validator headers of a conditional GET. */
function conditional(response: ReturnType<typeof ok>): ReturnType<typeof ok> {
  return {
    ...response,
    headers: z.object({
      ETag: z.string().meta({
        description: 'A weak validator: send it as If-None-Match to be answered 304 if unchanged',
      }),
      'Cache-Control': cacheControlHeader,
    }),
  };
}

/** Every task endpoint, fixed paths before `{id}` ones so they are never read as an id. */
export const taskEndpoints = [
  defineEndpoint({
    method: 'get',
    path: '/api/tasks/dashboard-data',
    operationId: 'getDashboard',
    tags: ['Dashboards'],
    summary: 'Dashboard over every task',
    access: 'admin',
    description: CONDITIONAL_GET,
    responses: {
      200: conditional(ok('Statistics, charts and the newest tasks.', dashboardResponseSchema)),
    },
    handler: ({ services, user, req, res }) =>
      services.tasks.dashboardUnlessFresh(user, {}, req.originalUrl, (etag) =>
        answeredNotModified(req, res, etag),
      ),
  }),
  defineEndpoint({
    method: 'get',
    path: '/api/tasks/user-dashboard-data',
    operationId: 'getMyDashboard',
    tags: ['Dashboards'],
    summary: "Dashboard over the caller's own tasks",
    access: 'signed-in',
    description: CONDITIONAL_GET,
    responses: {
      200: conditional(ok('Statistics, charts and the newest tasks.', dashboardResponseSchema)),
    },
    handler: ({ services, user, req, res }) =>
      services.tasks.dashboardUnlessFresh(user, { assigneeId: user.id }, req.originalUrl, (etag) =>
        answeredNotModified(req, res, etag),
      ),
  }),
  defineEndpoint({
    method: 'get',
    path: '/api/tasks',
    operationId: 'listTasks',
    tags,
    summary: 'Tasks, newest first',
    description: `Admins see every task, members the tasks assigned to them. ${CONDITIONAL_GET}`,
    access: 'signed-in',
    query: taskListQuerySchema,
    queryDoc: z.object({
      status: taskListQuerySchema.shape.status.meta({
        description: 'Only tasks with this status; empty or `All`: every status',
      }),
      ...pagingDoc,
      ...listFiltersDoc,
      view: z
        .enum(TASK_LIST_VIEWS)
        .optional()
        .meta({
          description:
            '`card`: each task as a card shows it (TaskCard: the counts of checklist items, links ' +
            `and files instead of the lists, the description cut to its start), answered as ` +
            `\`${TASK_CARDS_MEDIA_TYPE}\`. Absent or \`full\`: whole tasks.`,
        }),
    }),
    responses: {
      200: {
        ...conditional(
          ok('A page of tasks, the counts by status and the next cursor.', taskListResponseSchema),
        ),
        content: {
          'application/json': { schema: taskListResponseSchema },
          [TASK_CARDS_MEDIA_TYPE]: { schema: taskCardListResponseSchema },
        },
      },
      400: errors[400],
    },
    handler: async ({ services, user, query, req, res }) => {
      const body = await services.tasks.listUnlessFresh(user, query, req.originalUrl, (etag) =>
        answeredNotModified(req, res, etag),
      );
      if (body !== undefined && query.view === 'card') res.type(TASK_CARDS_MEDIA_TYPE);
      return body;
    },
  }),
  defineEndpoint({
    method: 'post',
    path: '/api/tasks',
    operationId: 'createTask',
    tags,
    summary: 'Create a task',
    access: 'admin',
    body: { schema: createTaskSchema, id: 'CreateTaskInput' },
    status: 201,
    responses: { 201: ok('Created.', taskMutationResponseSchema) },
    handler: async ({ services, user, body }) => ({
      message: apiMessages.taskCreated,
      task: await services.tasks.create(user.id, body),
    }),
  }),
  defineEndpoint({
    method: 'get',
    path: '/api/tasks/{id}',
    operationId: 'getTask',
    tags,
    summary: 'One task',
    description: `A member who is not assigned gets 404, as for an unknown id. ${CONDITIONAL_GET}`,
    access: 'task-viewer',
    params: taskId,
    responses: {
      200: {
        ...ok('The task.', taskSchema),
        headers: z.object({
          ETag: z.string().meta({
            description:
              'Its version: its updatedAt and the data version, quoted ("<updatedAt>/<n>"). ' +
              'Send it as If-Match to PUT (only the updatedAt counts there), or as ' +
              'If-None-Match to GET (304 while nothing it shows changed).',
          }),
          'Cache-Control': cacheControlHeader,
        }),
      },
      404: errors[404],
    },
    handler: ({ services, user, params, req, res }) =>
      services.tasks.getUnlessFresh(user, params.id, (etag) => answeredNotModified(req, res, etag)),
  }),
  defineEndpoint({
    method: 'put',
    path: '/api/tasks/{id}',
    operationId: 'updateTask',
    tags,
    summary: 'Edit a task',
    description:
      'Any non-empty subset of the fields. No silent overwrites: sent with an `If-Match` header ' +
      "holding the task's ETag (or its updatedAt) as read, the update is refused with 409 and " +
      'the current task when someone changed the task since. Without If-Match, it always applies.',
    access: 'admin',
    params: taskId,
    body: { schema: updateTaskSchema, id: 'UpdateTaskInput' },
    responses: {
      200: ok('Updated (the new version in the ETag header).', taskMutationResponseSchema),
      404: errors[404],
      409: ok('Changed by someone else since the If-Match version.', taskConflictResponseSchema),
    },
    handler: async ({ services, user, params, body, req, res }) => {
      try {
        const task = await services.tasks.update(params.id, body, {
          actorId: user.id,
          ifMatch: req.get('If-Match'),
        });
        res.set('ETag', taskETag(task));
        return { message: apiMessages.taskUpdated, task };
      } catch (error) {
        if (!(error instanceof TaskConflict)) throw error;
        res.set('ETag', taskETag(error.task));
        res.status(409).json({ message: error.message, code: 'conflict', task: error.task });
        return undefined;
      }
    },
  }),
  defineEndpoint({
    method: 'delete',
    path: '/api/tasks/{id}',
    operationId: 'deleteTask',
    tags,
    summary: 'Delete a task',
    access: 'admin',
    params: taskId,
    responses: { 200: ok('Deleted.', messageResponseSchema), 404: errors[404] },
    handler: async ({ services, params }) => {
      await services.tasks.delete(params.id);
      return { message: apiMessages.taskDeleted };
    },
  }),
  defineEndpoint({
    method: 'put',
    path: '/api/tasks/{id}/todo',
    operationId: 'updateChecklist',
    tags,
    summary: 'Replace the checklist',
    description:
      'Admins and assignees. Members may only tick and untick the existing items (400 ' +
      'otherwise). Progress and status follow the checklist.',
    access: 'task-viewer',
    params: taskId,
    body: { schema: updateChecklistSchema, id: 'UpdateChecklistInput' },
    responses: { 200: ok('Updated.', taskMutationResponseSchema), 404: errors[404] },
    handler: async ({ services, user, params, body }) => ({
      message: apiMessages.checklistUpdated,
      task: await services.tasks.updateChecklist(user, params.id, body.todoChecklist),
    }),
  }),
  defineEndpoint({
    method: 'post',
    path: '/api/tasks/{id}/todo',
    operationId: 'addChecklistItem',
    tags,
    summary: 'Add a checklist item',
    description:
      'Admins, and assignees on their own task. The item goes at the end, not done; progress ' +
      'and status follow the checklist.',
    access: 'task-viewer',
    params: taskId,
    body: { schema: addChecklistItemSchema, id: 'AddChecklistItemInput' },
    status: 201,
    responses: { 201: ok('Added.', taskMutationResponseSchema), 404: errors[404] },
    handler: async ({ services, user, params, body }) => ({
      message: apiMessages.checklistItemAdded,
      task: await services.tasks.addChecklistItem(user, params.id, body.text),
    }),
  }),
  defineEndpoint({
    method: 'put',
    path: '/api/tasks/{id}/todo/order',
    operationId: 'reorderChecklist',
    tags,
    summary: 'Reorder the checklist',
    description:
      'Admins. `ids` lists every item id of the task once, in the new order; ticks stay.',
    access: 'admin',
    params: taskId,
    body: { schema: reorderChecklistSchema, id: 'ReorderChecklistInput' },
    responses: { 200: ok('Reordered.', taskMutationResponseSchema), 404: errors[404] },
    handler: async ({ services, user, params, body }) => ({
      message: apiMessages.checklistUpdated,
      task: await services.tasks.reorderChecklist(user, params.id, body.ids),
    }),
  }),
  defineEndpoint({
    method: 'put',
    path: '/api/tasks/{id}/todo/{itemId}',
    operationId: 'renameChecklistItem',
    tags,
    summary: 'Rename a checklist item',
    description:
      'Its tick and id stay. Admins rename any item; an assignee the items they added (403 ' +
      'otherwise).',
    access: 'task-viewer',
    params: {
      ...taskId,
      itemId: {
        notFound: apiMessages.checklistItemNotFound,
        description: 'The checklist item id',
      },
    },
    body: { schema: renameChecklistItemSchema, id: 'RenameChecklistItemInput' },
    responses: {
      200: ok('Renamed.', taskMutationResponseSchema),
      403: errors[403],
      404: errors[404],
    },
    handler: async ({ services, user, params, body }) => ({
      message: apiMessages.checklistUpdated,
      task: await services.tasks.renameChecklistItem(user, params.id, params.itemId, body.text),
    }),
  }),
  defineEndpoint({
    method: 'patch',
    path: '/api/tasks/{id}/todo/{itemId}',
    operationId: 'updateChecklistItem',
    tags,
    summary: 'Tick or untick one checklist item',
    description: 'Admins and assignees. Progress and status follow the checklist.',
    access: 'task-viewer',
    params: {
      ...taskId,
      itemId: {
        notFound: apiMessages.checklistItemNotFound,
        description: 'The checklist item id',
      },
    },
    body: { schema: updateChecklistItemSchema, id: 'UpdateChecklistItemInput' },
    responses: { 200: ok('Updated.', taskMutationResponseSchema), 404: errors[404] },
    handler: async ({ services, user, params, body }) => ({
      message: apiMessages.checklistUpdated,
      task: await services.tasks.setChecklistItem(user, params.id, params.itemId, body.completed),
    }),
  }),
  defineEndpoint({
    method: 'put',
    path: '/api/tasks/{id}/status',
    operationId: 'updateTaskStatus',
    tags,
    summary: 'Set the status',
    description:
      'Admins and assignees. Completed ticks every item, Pending unticks them; In Progress ' +
      'leaves the items as they are: on a checklist with nothing done it marks the task started ' +
      '(progress 0, In Progress until an item is ticked), on one with every item done it is ' +
      'refused (400: untick an item instead). See docs/decisions/007-board-moves.md.',
    access: 'task-viewer',
    params: taskId,
    body: { schema: updateStatusSchema, id: 'UpdateStatusInput' },
    responses: { 200: ok('Updated.', taskMutationResponseSchema), 404: errors[404] },
    handler: async ({ services, user, params, body }) => ({
      message: apiMessages.statusUpdated,
      task: await services.tasks.updateStatus(user, params.id, body.status),
    }),
  }),
];
