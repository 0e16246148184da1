import { z } from 'zod';
import { validationMessages } from '@task-manager/shared';
import { BadRequest } from '../errors.js';
import { pathOfNul } from './validate.js';

/**
 * Keyset cursors: the sort key of the last row of a page, as base64url of a JSON pair. Clients
 * treat them as opaque strings; the server checks every decoded part before it reaches a query.
 */
export function encodeCursor(key: readonly [string, string]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/** Decodes a cursor and checks it against `shape`; anything else is a 400. */
export function decodeCursor<S extends z.ZodType<readonly [string, string]>>(
  cursor: string,
  shape: S,
): z.output<S> {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    decoded = undefined;
  }
  const result = shape.safeParse(decoded);
  // A forged cursor could carry a NUL, which PostgreSQL refuses in a query.
  if (!result.success || pathOfNul(result.data)) throw invalidCursor();
  return result.data;
}

function invalidCursor() {
  const message = validationMessages.invalidCursor;
  return BadRequest(message, [{ path: 'cursor', message }]);
}

/** The cursor of the task list: created_at (ISO text) and id of the last task shown. */
export const taskCursorShape = z.tuple([z.string().min(1).max(64), z.uuid()]);
/** The cursor of the user list: name and id of the last user shown. */
export const userCursorShape = z.tuple([z.string().max(1000), z.uuid()]);
