import { createHmac, timingSafeEqual } from 'node:crypto';
import { NOTIFICATION_TYPES, type NotificationType } from '@task-manager/shared';

/** What an unsubscribe link turns off: one kind, or (from a digest) every kind. */
export type UnsubscribeScope = NotificationType | 'digest';

const scopes: readonly string[] = [...NOTIFICATION_TYPES, 'digest'];

function sign(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(`unsubscribe:${payload}`).digest('base64url');
}

/**
 * A link token that needs no sign-in: the user id and the kind, and an HMAC of both with the
 * server's secret, so nobody can make one for someone else. It does not expire (mails are read
 * late), and what it can do is only ever to stop mail.
 */
export function unsubscribeToken(secret: string, userId: string, scope: UnsubscribeScope): string {
  const payload = `${userId}.${scope}`;
  return `${payload}.${sign(secret, payload)}`;
}

/** The user id and kind of a genuine token; undefined for anything else. */
export function readUnsubscribeToken(
  secret: string,
  token: string,
): { userId: string; scope: UnsubscribeScope } | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [userId, scope, mac] = parts as [string, string, string];
  if (!scopes.includes(scope)) return undefined;
  const expected = Buffer.from(sign(secret, `${userId}.${scope}`));
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  return { userId, scope: scope as UnsubscribeScope };
}
