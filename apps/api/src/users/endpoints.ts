import { z } from 'zod';
import {
  apiMessages,
  createUserSchema,
  deleteUserQuerySchema,
  messageResponseSchema,
  passwordResetLinkSchema,
  patchUserSchema,
  NEXT_CURSOR_HEADER,
  updateUserSchema,
  userListQuerySchema,
  userListResponseSchema,
  userSchema,
} from '@task-manager/shared';
import { defineEndpoint } from '../endpoint-deps.js';
import { withStoredImagePath } from '../images/links.js';
import { pagingDoc } from '../openapi/paging.js';
import { errorResponse, errors, ok } from '../openapi/responses.js';

const userId = { id: { notFound: apiMessages.userNotFound, description: 'The user id' } };
const tags = ['Users'];

export const userEndpoints = [
  defineEndpoint({
    method: 'get',
    path: '/api/users',
    operationId: 'listUsers',
    tags,
    summary: 'People with their task counts',
    description:
      'A page of people (admins and members, active and deactivated) by name; `X-Next-Cursor` ' +
      'names the next page. The assignee picker asks for `active=true`.',
    access: 'admin',
    query: userListQuerySchema,
    queryDoc: z.object({
      ...pagingDoc,
      q: z.string().max(100).optional().meta({
        description: 'Only people whose name or e-mail contains this text, ignoring case',
      }),
      // The former name of `q`, documented as it was.
      search: userListQuerySchema.shape.search.meta({
        description: 'Only members whose name or e-mail contains this text, ignoring case',
      }),
      role: z.enum(['admin', 'member']).optional().meta({ description: 'Only this role' }),
      active: z.enum(['true', 'false']).optional().meta({
        description: 'Only active (true) or only deactivated (false) people',
      }),
    }),
    responses: {
      200: {
        ...ok('A page of people, by name.', userListResponseSchema),
        headers: z.object({
          [NEXT_CURSOR_HEADER]: z.string().optional().meta({
            description: 'Send as `cursor` for the next page; absent on the last page',
          }),
        }),
      },
      400: errors[400],
    },
    // The body stays the spec's array of users; the next page is named in a header.
    handler: async ({ services, query, res }) => {
      const page = await services.users.listMembers(query);
      if (page.nextCursor) res.set(NEXT_CURSOR_HEADER, page.nextCursor);
      return page.users;
    },
  }),
  defineEndpoint({
    method: 'post',
    path: '/api/users',
    operationId: 'createUser',
    tags,
    summary: 'Create a member or an admin',
    access: 'admin',
    body: { schema: createUserSchema, id: 'CreateUserInput' },
    status: 201,
    responses: { 201: ok('The new user.', userSchema), 409: errors[409], 503: errors[503] },
    handler: ({ services, user, body, req }) =>
      services.users.createByAdmin(withStoredImagePath(body, req), user.id),
  }),
  defineEndpoint({
    method: 'get',
    path: '/api/users/{id}',
    operationId: 'getUser',
    tags,
    summary: 'One user',
    description: 'Admins may read anyone; a member only themself.',
    access: 'self-or-admin',
    params: userId,
    responses: {
      200: ok('The user.', userSchema),
      403: errorResponse('NotYourself', 'A member asked for another user.'),
      404: errors[404],
    },
    handler: ({ services, params }) => services.users.get(params.id),
  }),
  defineEndpoint({
    method: 'put',
    path: '/api/users/{id}',
    operationId: 'updateUser',
    tags,
    summary: 'Edit a user',
    description:
      'Any non-empty subset of the fields. A role or password change signs that user out ' +
      'everywhere. An admin changes their own password only through the profile (400); the ' +
      'last admin cannot become a member (409). With e-mail set up, the person is told of a ' +
      'new e-mail address (at the former one) or password, with the admin named.',
    access: 'admin',
    params: userId,
    body: { schema: updateUserSchema, id: 'UpdateUserInput' },
    responses: {
      200: ok('The updated user.', userSchema),
      404: errors[404],
      409: errors[409],
      503: errors[503],
    },
    handler: ({ services, user, params, body, req }) =>
      services.auth.updateUserByAdmin(user.id, params.id, withStoredImagePath(body, req)),
  }),
  defineEndpoint({
    method: 'patch',
    path: '/api/users/{id}',
    operationId: 'changeUser',
    tags,
    summary: "Change someone's role, or deactivate or reactivate them",
    description:
      'A deactivated person cannot sign in and their sessions end at once; they stay on their ' +
      'tasks (marked deactivated) and leave the assignee picker. With `reassignTo` (only beside ' +
      '`active: false`), their open tasks (not Completed) go to that active user in the same ' +
      'transaction; completed ones stay theirs. The last active admin can be neither demoted ' +
      'nor deactivated (409). Recorded in the audit log.',
    access: 'admin',
    params: userId,
    body: { schema: patchUserSchema, id: 'ChangeUserInput' },
    responses: {
      200: ok('The user as now stored.', userSchema),
      400: errors[400],
      404: errors[404],
      409: errors[409],
    },
    handler: ({ services, user, params, body }) => services.users.patch(params.id, body, user.id),
  }),
  defineEndpoint({
    method: 'delete',
    path: '/api/users/{id}',
    operationId: 'deleteUser',
    tags,
    summary: 'Delete a user',
    description:
      'Never the last active admin (409). With `reassignTo`, every task of the person goes to ' +
      'that active user in the same transaction; without it their tasks stay, without them. ' +
      'Recorded in the audit log.',
    access: 'admin',
    params: userId,
    query: deleteUserQuerySchema,
    queryDoc: z.object({
      reassignTo: z.uuid().optional().meta({
        description: "An active user's id: who gets the deleted person's tasks",
      }),
    }),
    responses: {
      200: ok('Deleted.', messageResponseSchema),
      400: errors[400],
      404: errors[404],
      409: errors[409],
    },
    handler: async ({ services, user, params, query }) => {
      await services.users.delete(params.id, user.id, query.reassignTo);
      return { message: apiMessages.userDeleted };
    },
  }),
  defineEndpoint({
    method: 'post',
    path: '/api/users/{id}/password-reset',
    operationId: 'createPasswordResetLink',
    tags,
    summary: 'A password-reset link for someone, to hand over',
    description:
      'Single use, valid 24 hours: whoever opens it sets a new password, which ends every ' +
      'session of the person. Only the link holds the token (the server keeps its hash). ' +
      'Recorded in the audit log.',
    access: 'admin',
    params: userId,
    responses: {
      200: ok('The link, relative to the web app.', passwordResetLinkSchema),
      404: errors[404],
    },
    handler: ({ services, user, params }) => services.auth.createResetLink(user.id, params.id),
  }),
];
