import type { RequestHandler } from 'express';
import type { Kysely } from 'kysely';
import { apiMessages } from '@task-manager/shared';
import type { AuthEvents } from '../auth/events.js';
import type { Database } from '../db/tables.js';
import { HttpError, Unauthorized } from '../errors.js';
import { useEventTicket } from './tickets.js';

/** Longer than any ticket we issue: anything longer is not one, and is not looked up. */
const MAX_TICKET_LENGTH = 100;

/**
 * Who opens an event stream: a browser's EventSource brings `?ticket=` (single-use, see
 * tickets.ts), any other client its bearer token (`requireAuth`). Refused as everywhere else: 401,
 * and a deactivated account is told so.
 */
export function ticketOrBearer(
  db: Kysely<Database>,
  requireAuth: RequestHandler,
  events: AuthEvents,
): RequestHandler {
  return async (req, res, next) => {
    const { ticket } = req.query;
    if (ticket === undefined) return requireAuth(req, res, next);
    const user =
      typeof ticket === 'string' && ticket.length <= MAX_TICKET_LENGTH
        ? await useEventTicket(db, ticket)
        : undefined;
    if (user && Number(user.active) !== 1) {
      events.unauthorized(req);
      throw new HttpError(401, apiMessages.accountDeactivated, undefined, {
        code: 'account_deactivated',
      });
    }
    // A sign-out everywhere or a password change since the ticket was issued ends it too.
    if (!user || user.token_version !== user.ticketVersion) {
      events.unauthorized(req);
      throw Unauthorized();
    }
    req.user = { id: user.id, role: user.role, tokenVersion: user.token_version };
    next();
  };
}
