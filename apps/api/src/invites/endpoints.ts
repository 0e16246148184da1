import { z } from 'zod';
import {
  apiMessages,
  createdInviteSchema,
  createInviteSchema,
  inviteListQuerySchema,
  inviteListSchema,
  inviteLookupQuerySchema,
  inviteLookupSchema,
  inviteSchema,
  NEXT_CURSOR_HEADER,
} from '@task-manager/shared';
import { defineEndpoint } from '../endpoint-deps.js';
import { pagingDoc } from '../openapi/paging.js';
import { errors, ok } from '../openapi/responses.js';

const tags = ['Invitations'];

export const inviteEndpoints = [
  defineEndpoint({
    method: 'post',
    path: '/api/invites',
    operationId: 'createInvite',
    tags,
    summary: 'Create an invitation link',
    description:
      'Single use, expiring after `expiresInDays` (1 to 30, default 7); with `email`, only that ' +
      'address may use it. The token is in the answer only: the server keeps its SHA-256. ' +
      'Recorded in the audit log.',
    access: 'admin',
    body: { schema: createInviteSchema, id: 'CreateInviteInput' },
    status: 201,
    responses: { 201: ok('The invitation and its link, shown once.', createdInviteSchema) },
    handler: ({ services, user, body }) => services.invites.create(user.id, body),
  }),
  defineEndpoint({
    method: 'get',
    path: '/api/invites',
    operationId: 'listInvites',
    tags,
    summary: 'Invitations, newest first',
    description: 'With their status: pending, used, expired or revoked.',
    access: 'admin',
    query: inviteListQuerySchema,
    queryDoc: z.object(pagingDoc),
    responses: {
      200: {
        ...ok('A page of invitations.', inviteListSchema),
        headers: z.object({
          [NEXT_CURSOR_HEADER]: z.string().optional().meta({
            description: 'Send as `cursor` for the next page; absent on the last page',
          }),
        }),
      },
      400: errors[400],
    },
    handler: async ({ services, query, res }) => {
      const page = await services.invites.list(query);
      if (page.nextCursor) res.set(NEXT_CURSOR_HEADER, page.nextCursor);
      return page.invites;
    },
  }),
  defineEndpoint({
    method: 'get',
    path: '/api/invites/lookup',
    operationId: 'lookUpInvite',
    tags,
    summary: 'What an invitation link grants',
    description: 'For the sign-up page: 404 unless the link is still usable. Limited per IP.',
    access: 'anyone',
    before: ({ limits }) => [limits.inviteLookup],
    query: inviteLookupQuerySchema,
    responses: {
      200: ok('The role it grants and the address it is for.', inviteLookupSchema),
      400: errors[400],
      404: errors[404],
      429: errors[429],
    },
    handler: ({ services, query }) => services.invites.lookup(query.token),
  }),
  defineEndpoint({
    method: 'delete',
    path: '/api/invites/{id}',
    operationId: 'revokeInvite',
    tags,
    summary: 'Revoke an invitation',
    description:
      'The link stops working at once. One already used stays used. Recorded in the audit log.',
    access: 'admin',
    params: { id: { notFound: apiMessages.inviteNotFound, description: 'The invitation id' } },
    responses: { 200: ok('The invitation as now stored.', inviteSchema), 404: errors[404] },
    handler: ({ services, user, params }) => services.invites.revoke(user.id, params.id),
  }),
];
