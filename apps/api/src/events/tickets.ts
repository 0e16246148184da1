import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.js';

/** How long a ticket for opening an event stream may wait to be used. */
export const TICKET_TTL_MS = 30_000;

const hashTicket = (ticket: string) => createHash('sha256').update(ticket, 'utf8').digest('hex');

/**
 * Issues a single-use ticket for `GET /api/events?ticket=`: the browser's EventSource cannot send
 * the bearer header, and the long-lived token must never be put in a URL (logs, history).
 * Expired tickets nobody used are cleared on the way.
 */
export async function issueEventTicket(
  db: Kysely<Database>,
  user: { id: string; tokenVersion: number },
  now = new Date(),
): Promise<{ ticket: string; expiresAt: string }> {
  const ticket = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + TICKET_TTL_MS).toISOString();
  await db.deleteFrom('event_tickets').where('expires_at', '<', now.toISOString()).execute();
  await db
    .insertInto('event_tickets')
    .values({
      ticket_hash: hashTicket(ticket),
      user_id: user.id,
      token_version: user.tokenVersion,
      expires_at: expiresAt,
    })
    .execute();
  return { ticket, expiresAt };
}

/**
 * Uses a ticket up: deleted whether it was still valid or not, so it works at most once, on
 * whichever process it reaches. Returns its user as they are now (with the token version the
 * ticket was issued under), or undefined when the ticket is unknown, used or expired.
 */
export async function useEventTicket(db: Kysely<Database>, ticket: string, now = new Date()) {
  const row = await db
    .deleteFrom('event_tickets')
    .where('ticket_hash', '=', hashTicket(ticket))
    .returning(['user_id', 'token_version', 'expires_at'])
    .executeTakeFirst();
  if (!row || row.expires_at <= now.toISOString()) return undefined;
  const user = await db
    .selectFrom('users')
    .select(['id', 'role', 'token_version', 'active'])
    .where('id', '=', row.user_id)
    .executeTakeFirst();
  return user && { ...user, ticketVersion: row.token_version };
}
