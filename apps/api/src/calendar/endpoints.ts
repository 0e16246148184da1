import type { Request } from 'express';
import { z } from 'zod';
import { calendarFeedSchema, updateCalendarFeedSchema } from '@task-manager/shared';
import { defineEndpoint } from '../endpoint-deps.js';
import { NotFound } from '../errors.js';
import { errors, ok } from '../openapi/responses.js';

const tags = ['Calendar'];

/** Where this request came to, for addresses when PUBLIC_URL is not set. */
const originOf = (req: Request) => `${req.protocol}://${req.get('host') ?? 'localhost'}`;

export const calendarEndpoints = [
  defineEndpoint({
    method: 'get',
    path: '/api/calendar/feed',
    operationId: 'getCalendarFeed',
    tags,
    summary: 'The caller’s secret calendar address',
    description:
      'Made on the first call. Subscribe to `url` in Google Calendar, Apple Calendar or ' +
      'Thunderbird; anyone with it sees the tasks in it, so keep it secret (rotate to revoke).',
    access: 'signed-in',
    responses: { 200: ok('The feed.', calendarFeedSchema) },
    handler: ({ services, user, req }) => services.calendar.feed(user, originOf(req)),
  }),
  defineEndpoint({
    method: 'post',
    path: '/api/calendar/feed/rotate',
    operationId: 'rotateCalendarFeed',
    tags,
    summary: 'A new secret calendar address',
    description: 'The old address answers 404 at once.',
    access: 'signed-in',
    responses: { 200: ok('The feed with its new address.', calendarFeedSchema) },
    handler: ({ services, user, req }) => services.calendar.rotate(user, originOf(req)),
  }),
  defineEndpoint({
    method: 'put',
    path: '/api/calendar/feed',
    operationId: 'updateCalendarFeed',
    tags,
    summary: 'Whose tasks the caller’s feed holds',
    description: '`mine`: the tasks assigned to the caller; `all` (admins only): every task.',
    access: 'signed-in',
    body: { schema: updateCalendarFeedSchema, id: 'UpdateCalendarFeed' },
    responses: { 200: ok('The feed.', calendarFeedSchema), 403: errors[403] },
    handler: ({ services, user, body, req }) =>
      services.calendar.setScope(user, body.scope, originOf(req)),
  }),
  defineEndpoint({
    method: 'get',
    path: '/api/calendar/{secret}.ics',
    operationId: 'getCalendar',
    tags,
    summary: 'A person’s tasks as an iCalendar feed (RFC 5545)',
    description:
      'No sign-in: the secret in the address is the key. One all-day event per task with its ' +
      'due date, UID `<taskId>@<host>`. 404 for an unknown or rotated secret, or a deactivated ' +
      'person.',
    access: 'anyone',
    params: {
      secret: { notFound: 'Calendar not found', description: 'The secret of the feed’s address' },
    },
    responses: {
      200: {
        description: 'The calendar.',
        content: { 'text/calendar': { schema: z.string() } },
      },
      404: errors[404],
    },
    handler: async ({ services, params, req, res }) => {
      const text = await services.calendar.calendarOf(params.secret, originOf(req));
      if (text === undefined) throw NotFound('Calendar not found');
      // Express adds an ETag and answers 304 to a matching If-None-Match.
      res.set('Cache-Control', 'private, max-age=300');
      res.set('Referrer-Policy', 'no-referrer');
      res.type('text/calendar; charset=utf-8').send(text);
      return undefined;
    },
  }),
];
