import { z } from 'zod';
import {
  errorResponseSchema,
  LANGUAGES,
  markNotificationsReadSchema,
  notificationCountSchema,
  notificationListQuerySchema,
  notificationPageSchema,
  notificationPreferencesSchema,
  updateNotificationPreferencesSchema,
  type Language,
} from '@task-manager/shared';
import { defineEndpoint } from '../endpoint-deps.js';
import { pagingDoc } from '../openapi/paging.js';
import type { Request, Response } from 'express';
import { errors, ok } from '../openapi/responses.js';
import { BadRequest } from '../errors.js';
import { textsFor } from '../i18n/texts.js';
import { confirmPage, donePage, invalidLinkPage } from './unsubscribe-page.js';

const invalidUnsubscribeLink = 'This unsubscribe link is not valid';

/** The page's texts: the person's language, else the browser's. */
const pageTexts = (req: Request, language?: Language | null) =>
  textsFor(language, req.acceptsLanguages(...LANGUAGES));

/** The answer's CSP nonce (http/web-app.ts, cspNonce), for the page's own style block. */
const nonceOf = (res: Response) => String(res.locals.cspNonce ?? '');

/**
 * A link that is not genuine: a person who clicked it in a browser gets a page that says so;
 * any other client (a mail client's one-click post, a script) the JSON error of every endpoint.
 */
function refuseInvalidLink(req: Request, res: Response): undefined {
  if (req.accepts(['json', 'html']) !== 'html') throw BadRequest(invalidUnsubscribeLink);
  res.set('Cache-Control', 'no-store');
  res
    .status(400)
    .type('html')
    .send(invalidLinkPage(pageTexts(req), nonceOf(res)));
  return undefined;
}

/** The 400 of an unsubscribe link: JSON, or a page for a browser (Accept: text/html). */
const invalidLinkResponse = {
  description: 'The link is not genuine: a page for a browser, else the JSON error.',
  content: {
    'application/json': { schema: errorResponseSchema },
    'text/html': { schema: { type: 'string' as const } },
  },
};

const tags = ['Notifications'];

const html = (description: string) => ({
  description,
  content: { 'text/html': { schema: { type: 'string' as const } } },
});

const unsubscribeQuery = z.object({
  token: z.string().min(1).max(500).meta({ description: 'The token of the link in the mail' }),
});

export const notificationEndpoints = [
  defineEndpoint({
    method: 'get',
    path: '/api/notifications',
    operationId: 'listNotifications',
    tags,
    summary: "The caller's notifications, newest first",
    description:
      'Cursor paged (`nextCursor`); `unread=true` lists only unread ones. A task shows only ' +
      'while the caller may still see it.',
    access: 'signed-in',
    query: notificationListQuerySchema,
    queryDoc: z.object({
      ...pagingDoc,
      unread: z.enum(['true', 'false']).optional().meta({ description: 'Only unread ones' }),
    }),
    responses: { 200: ok('A page of notifications.', notificationPageSchema), 400: errors[400] },
    handler: ({ services, user, query }) => services.notifications.list(user, query),
  }),
  defineEndpoint({
    method: 'get',
    path: '/api/notifications/unread-count',
    operationId: 'countUnreadNotifications',
    tags,
    summary: 'How many of the caller’s notifications are unread',
    access: 'signed-in',
    responses: { 200: ok('The count.', notificationCountSchema) },
    handler: ({ services, user }) => services.notifications.unreadCount(user),
  }),
  defineEndpoint({
    method: 'post',
    path: '/api/notifications/read',
    operationId: 'markNotificationsRead',
    tags,
    summary: 'Marks notifications read',
    description:
      '`{ids}`: those of the caller’s own (anyone else’s ids are ignored); `{all: true}`: ' +
      'every one. Answers how many are still unread.',
    access: 'signed-in',
    body: { schema: markNotificationsReadSchema, id: 'MarkNotificationsRead' },
    responses: { 200: ok('The unread count after.', notificationCountSchema) },
    handler: ({ services, user, body }) => services.notifications.markRead(user, body),
  }),
  defineEndpoint({
    method: 'get',
    path: '/api/notifications/preferences',
    operationId: 'getNotificationPreferences',
    tags,
    summary: 'The caller’s e-mail choice for each kind of notification',
    description:
      "Each kind: 'instant', 'digest' (a daily summary) or 'never'. `emailEnabled`: whether " +
      'this server sends e-mail at all (SMTP_URL).',
    access: 'signed-in',
    responses: { 200: ok('The preferences.', notificationPreferencesSchema) },
    handler: ({ services, user }) => services.notifications.preferences(user),
  }),
  defineEndpoint({
    method: 'put',
    path: '/api/notifications/preferences',
    operationId: 'updateNotificationPreferences',
    tags,
    summary: 'Changes some of the caller’s e-mail choices',
    description: 'Kinds left out keep their choice.',
    access: 'signed-in',
    body: { schema: updateNotificationPreferencesSchema, id: 'UpdateNotificationPreferences' },
    responses: { 200: ok('The preferences after.', notificationPreferencesSchema) },
    handler: ({ services, user, body }) => services.notifications.updatePreferences(user, body),
  }),
  defineEndpoint({
    method: 'get',
    path: '/api/notifications/unsubscribe',
    operationId: 'showUnsubscribe',
    tags,
    summary: 'The page of an unsubscribe link: a button, no change',
    description:
      'No sign-in: the signed token names the person and the kind. A GET changes nothing ' +
      '(mail scanners follow links); the button posts to the same address. A link that is not ' +
      'genuine is a 400: a page for a browser, the JSON error for any other client.',
    access: 'anyone',
    query: unsubscribeQuery,
    responses: { 200: html('A page with a confirm button.'), 400: invalidLinkResponse },
    handler: async ({ services, query, req, res }) => {
      const target = await services.notifications.unsubscribeTarget(query.token);
      if (!target) return refuseInvalidLink(req, res);
      res.set('Cache-Control', 'no-store');
      res.set('Referrer-Policy', 'no-referrer');
      const texts = pageTexts(req, target.language);
      res
        .type('html')
        .send(confirmPage(texts, nonceOf(res), texts.unsubscribe.kinds[target.scope]));
      return undefined;
    },
  }),
  defineEndpoint({
    method: 'post',
    path: '/api/notifications/unsubscribe',
    operationId: 'unsubscribe',
    tags,
    summary: 'One-click unsubscribe (RFC 8058)',
    description:
      'No sign-in. Sets the kind of the link to `never` (a digest link: every kind sent to ' +
      'the digest). Mail clients post `List-Unsubscribe=One-Click`; the body is not needed.',
    access: 'anyone',
    query: unsubscribeQuery,
    responses: { 200: html('Unsubscribed.'), 400: invalidLinkResponse },
    handler: async ({ services, query, req, res }) => {
      const target = await services.notifications.unsubscribe(query.token);
      if (!target) return refuseInvalidLink(req, res);
      res.set('Cache-Control', 'no-store');
      res.type('html').send(donePage(pageTexts(req, target.language), nonceOf(res)));
      return undefined;
    },
  }),
];
