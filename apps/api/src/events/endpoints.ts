import { z } from 'zod';
import { eventTicketSchema, liveEventTypes, LIVE_RESET_EVENT } from '@task-manager/shared';
import { defineEndpoint } from '../endpoint-deps.js';
import { errors, ok } from '../openapi/responses.js';
import { STREAM_RETRY_MS } from './bus.js';
import { TICKET_TTL_MS } from './tickets.js';

const tags = ['Live updates'];

const eventId = z.string().regex(/^\d{1,15}$/);
const streamQuerySchema = z.object({
  ticket: z.string().optional(),
  lastEventId: eventId.optional(),
});
const streamQueryDoc = z.object({
  ticket: z.string().optional().meta({
    description: 'A ticket from `POST /api/events/ticket`, instead of the bearer header',
  }),
  lastEventId: eventId.optional().meta({
    description:
      'Resume after this event id (as the `Last-Event-ID` header, which a new EventSource ' +
      'cannot set); the header wins when both are given',
  }),
});

/** The resume position: the header a reconnecting EventSource sends, else the query's. */
function resumePosition(header: string | undefined, query: string | undefined) {
  const value = header !== undefined && eventId.safeParse(header).success ? header : query;
  return value === undefined ? undefined : Number(value);
}

export const liveEventEndpoints = [
  defineEndpoint({
    method: 'post',
    path: '/api/events/ticket',
    operationId: 'createEventTicket',
    tags,
    summary: 'A ticket for opening the event stream',
    description:
      `Single-use and valid for ${TICKET_TTL_MS / 1000} s, on any API process: the browser's ` +
      'EventSource cannot send the bearer header, and the long-lived token never goes in a URL.',
    access: 'signed-in',
    status: 201,
    responses: { 201: ok('The ticket.', eventTicketSchema.meta({ id: 'EventTicket' })) },
    handler: ({ services, user, res }) => {
      res.set('Cache-Control', 'no-store');
      return services.liveEvents.issueTicket(user);
    },
  }),
  defineEndpoint({
    method: 'get',
    path: '/api/events',
    operationId: 'streamEvents',
    tags,
    summary: "The signed-in user's live updates (Server-Sent Events)",
    description:
      'A `text/event-stream` that stays open. Authenticated with `?ticket=` or the bearer header. ' +
      `It starts with \`retry: ${STREAM_RETRY_MS}\` and an \`event: ready\` whose data is ` +
      '`{"lastEventId": N}`, the current position. Then each event the user may see (a member: ' +
      'the tasks assigned to them and their own notifications; an admin: every task): `id:` its ' +
      'position, `event:` its type (' +
      liveEventTypes.join(', ') +
      '), `data:` a JSON `{type, taskId, at, data}`. Events say what changed, not its contents. ' +
      'With `Last-Event-ID` (or `?lastEventId=`) the events after it are replayed first; when it ' +
      `is older than what is kept (24 h) or over 1,000 events behind, \`event: ${LIVE_RESET_EVENT}\` ` +
      'asks the client to refetch everything. A `: ping` comment comes every 25 s.',
    access: 'signed-in',
    authenticate: (middleware) => [middleware.eventStreamAuth],
    query: streamQuerySchema,
    queryDoc: streamQueryDoc,
    responses: {
      200: {
        description: 'The event stream.',
        content: {
          'text/event-stream': {
            schema: z.string().meta({ description: 'Server-Sent Events, one after another' }),
          },
        },
      },
      400: errors[400],
    },
    handler: async ({ services, user, query, req, res }) => {
      const resumeFrom = resumePosition(req.get('last-event-id'), query.lastEventId);
      await services.liveEvents.openStream(res, user, resumeFrom);
      return undefined;
    },
  }),
];
