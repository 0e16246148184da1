import { z } from 'zod';
import {
  apiMessages,
  commentListQuerySchema,
  commentListSchema,
  commentSchema,
  createCommentSchema,
  mentionableListSchema,
  messageResponseSchema,
  NEXT_CURSOR_HEADER,
  updateCommentSchema,
} from '@task-manager/shared';
import { defineEndpoint } from '../endpoint-deps.js';
import { pagingDoc } from '../openapi/paging.js';
import { errors, ok } from '../openapi/responses.js';

const tags = ['Comments'];
const taskId = { id: { notFound: apiMessages.taskNotFound, description: 'The task id' } };
const commentId = { id: { notFound: apiMessages.commentNotFound, description: 'The comment id' } };

export const commentEndpoints = [
  defineEndpoint({
    method: 'get',
    path: '/api/tasks/{id}/comments',
    operationId: 'listComments',
    tags,
    summary: "A task's comments, oldest first",
    description: 'Anyone who can see the task.',
    access: 'task-viewer',
    params: taskId,
    query: commentListQuerySchema,
    queryDoc: z.object(pagingDoc),
    responses: {
      200: {
        ...ok('A page of comments.', commentListSchema),
        headers: z.object({
          [NEXT_CURSOR_HEADER]: z.string().optional().meta({
            description: 'Send as `cursor` for the next page; absent on the last page',
          }),
        }),
      },
      400: errors[400],
      404: errors[404],
    },
    handler: async ({ services, user, params, query, res }) => {
      const page = await services.comments.list(user, params.id, query);
      if (page.nextCursor) res.set(NEXT_CURSOR_HEADER, page.nextCursor);
      return page.comments;
    },
  }),
  defineEndpoint({
    method: 'post',
    path: '/api/tasks/{id}/comments',
    operationId: 'createComment',
    tags,
    summary: 'Comment on a task',
    description:
      'Anyone who can see the task. `body`: Markdown, up to 10,000 characters, stored as ' +
      'written. `mentions`: ids of people who can see the task (admins and its assignees); ' +
      'anyone else is refused (400 naming `mentions`).',
    access: 'task-viewer',
    params: taskId,
    body: { schema: createCommentSchema, id: 'CreateCommentInput' },
    status: 201,
    responses: { 201: ok('The new comment.', commentSchema), 404: errors[404] },
    handler: ({ services, user, params, body }) => services.comments.create(user, params.id, body),
  }),
  defineEndpoint({
    method: 'get',
    path: '/api/tasks/{id}/people',
    operationId: 'listTaskPeople',
    tags,
    summary: 'Who can see a task (to mention)',
    description: 'Every active admin and the active assignees, by name: who `@` offers.',
    access: 'task-viewer',
    params: taskId,
    responses: { 200: ok('The people.', mentionableListSchema), 404: errors[404] },
    handler: ({ services, user, params }) => services.comments.mentionable(user, params.id),
  }),
  defineEndpoint({
    method: 'put',
    path: '/api/comments/{id}',
    operationId: 'updateComment',
    tags,
    summary: 'Edit a comment',
    description:
      'Its author only (403 for anyone else who can see it); the answer is marked edited. ' +
      'Without `mentions`, they stay as they were.',
    access: 'signed-in',
    params: commentId,
    body: { schema: updateCommentSchema, id: 'UpdateCommentInput' },
    responses: {
      200: ok('The comment as it now is.', commentSchema),
      403: errors[403],
      404: errors[404],
    },
    handler: ({ services, user, params, body }) => services.comments.update(user, params.id, body),
  }),
  defineEndpoint({
    method: 'delete',
    path: '/api/comments/{id}',
    operationId: 'deleteComment',
    tags,
    summary: 'Delete a comment',
    description: 'Its author or an admin (403 for anyone else who can see it).',
    access: 'signed-in',
    params: commentId,
    responses: {
      200: ok('Deleted.', messageResponseSchema),
      403: errors[403],
      404: errors[404],
    },
    handler: async ({ services, user, params }) => {
      await services.comments.delete(user, params.id);
      return { message: apiMessages.commentDeleted };
    },
  }),
];
