import { z } from 'zod';
import {
  apiMessages,
  createTaskSchema,
  dashboardResponseSchema,
  messageResponseSchema,
  taskListQuerySchema,
  taskListResponseSchema,
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

const taskId = { id: { notFound: apiMessages.taskNotFound, description: 'The task id' } };
const tags = ['Tasks'];

/** Every task endpoint, fixed paths before `{id}` ones so they are never read as an id. */
export const taskEndpoints = [
  defineEndpoint({
    method: 'get',
    path: '/api/tasks/dashboard-data',
    operationId: 'getDashboard',
    tags: ['Dashboards'],
    summary: 'Dashboard over every task',
    access: 'admin',
    responses: { 200: ok('Statistics, charts and the newest tasks.', dashboardResponseSchema) },
    handler: ({ services }) => services.tasks.dashboard({}),
  }),
  defineEndpoint({
    method: 'get',
    path: '/api/tasks/user-dashboard-data',
    operationId: 'getMyDashboard',
    tags: ['Dashboards'],
    summary: "Dashboard over the caller's own tasks",
    access: 'signed-in',
    responses: { 200: ok('Statistics, charts and the newest tasks.', dashboardResponseSchema) },
    handler: ({ services, user }) => services.tasks.dashboard({ assigneeId: user.id }),
  }),
  defineEndpoint({
    method: 'get',
    path: '/api/tasks',
    operationId: 'listTasks',
    tags,
    summary: 'Tasks, newest first',
    description: 'Admins see every task, members the tasks assigned to them.',
    access: 'signed-in',
    query: taskListQuerySchema,
    queryDoc: z.object({
      status: taskListQuerySchema.shape.status.meta({
        description: 'Only tasks with this status; empty or `All`: every status',
      }),
      ...pagingDoc,
    }),
    responses: {
      200: ok('A page of tasks, the counts by status and the next cursor.', taskListResponseSchema),
      400: errors[400],
    },
    handler: ({ services, user, query }) => services.tasks.list(user, query),
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
    description: 'A member who is not assigned gets 404, as for an unknown id.',
    access: 'task-viewer',
    params: taskId,
    responses: { 200: ok('The task.', taskSchema), 404: errors[404] },
    handler: ({ services, user, params }) => services.tasks.get(user, params.id),
  }),
  defineEndpoint({
    method: 'put',
    path: '/api/tasks/{id}',
    operationId: 'updateTask',
    tags,
    summary: 'Edit a task',
    description: 'Any non-empty subset of the fields.',
    access: 'admin',
    params: taskId,
    body: { schema: updateTaskSchema, id: 'UpdateTaskInput' },
    responses: { 200: ok('Updated.', taskMutationResponseSchema), 404: errors[404] },
    handler: async ({ services, params, body }) => ({
      message: apiMessages.taskUpdated,
      task: await services.tasks.update(params.id, body),
    }),
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
      'only while some but not all items are done (400 otherwise).',
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
