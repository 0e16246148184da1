import { z } from 'zod';
import {
  activityListQuerySchema,
  activityListSchema,
  apiMessages,
  NEXT_CURSOR_HEADER,
} from '@task-manager/shared';
import { defineEndpoint } from '../endpoint-deps.js';
import { pagingDoc } from '../openapi/paging.js';
import { errors, ok } from '../openapi/responses.js';

const tags = ['Activity'];

const pageAnswer = (description: string) => ({
  ...ok(description, activityListSchema),
  headers: z.object({
    [NEXT_CURSOR_HEADER]: z.string().optional().meta({
      description: 'Send as `cursor` for the next page; absent on the last page',
    }),
  }),
});

export const activityEndpoints = [
  defineEndpoint({
    method: 'get',
    path: '/api/activity',
    operationId: 'listRecentActivity',
    tags,
    summary: "The team's recent activity across tasks, newest first",
    description:
      'Every change to every task, each with its task (`_id`, `title`), for the admin dashboard. ' +
      'Entries are written in the transaction of their change. Deleting a task deletes its ' +
      'history.',
    access: 'admin',
    query: activityListQuerySchema,
    queryDoc: z.object(pagingDoc),
    responses: { 200: pageAnswer('A page of entries.'), 400: errors[400] },
    handler: async ({ services, query, res }) => {
      const page = await services.activity.listRecent(query);
      if (page.nextCursor) res.set(NEXT_CURSOR_HEADER, page.nextCursor);
      return page.items;
    },
  }),
  defineEndpoint({
    method: 'get',
    path: '/api/tasks/{id}/activity',
    operationId: 'listTaskActivity',
    tags,
    summary: "A task's history, oldest first",
    description:
      'Everything that happened to the task: creation, field changes (before and after), ' +
      'assignees, checklist items, status (and why), links, files and comments. Anyone who can ' +
      'see the task.',
    access: 'task-viewer',
    params: { id: { notFound: apiMessages.taskNotFound, description: 'The task id' } },
    query: activityListQuerySchema,
    queryDoc: z.object(pagingDoc),
    responses: { 200: pageAnswer('A page of entries.'), 400: errors[400], 404: errors[404] },
    handler: async ({ services, user, params, query, res }) => {
      await services.tasks.assertVisible(user, params.id);
      const page = await services.activity.listForTask(params.id, query);
      if (page.nextCursor) res.set(NEXT_CURSOR_HEADER, page.nextCursor);
      return page.items;
    },
  }),
];
