import { z } from 'zod';
import { auditListQuerySchema, auditListSchema, NEXT_CURSOR_HEADER } from '@task-manager/shared';
import { defineEndpoint } from '../endpoint-deps.js';
import { pagingDoc } from '../openapi/paging.js';
import { errors, ok } from '../openapi/responses.js';

export const auditEndpoints = [
  defineEndpoint({
    method: 'get',
    path: '/api/audit',
    operationId: 'listAuditEntries',
    tags: ['Audit'],
    summary: 'The admin audit log, newest first',
    description:
      'Every admin change to people, invitations, settings and password resets: who, what, ' +
      'when. Each entry is written in the transaction of its change.',
    access: 'admin',
    query: auditListQuerySchema,
    queryDoc: z.object(pagingDoc),
    responses: {
      200: {
        ...ok('A page of entries.', auditListSchema),
        headers: z.object({
          [NEXT_CURSOR_HEADER]: z.string().optional().meta({
            description: 'Send as `cursor` for the next page; absent on the last page',
          }),
        }),
      },
      400: errors[400],
    },
    handler: async ({ services, query, res }) => {
      const page = await services.audit.list(query);
      if (page.nextCursor) res.set(NEXT_CURSOR_HEADER, page.nextCursor);
      return page.entries;
    },
  }),
];
