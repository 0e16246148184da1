import { z } from 'zod';
import { validationMessages as m } from '../messages.js';

/** Page sizes of the list endpoints (GET /api/tasks, GET /api/users). */
export const PAGE_LIMIT_DEFAULT = 100;
export const PAGE_LIMIT_MAX = 500;

/** The response header of GET /api/users that carries the next page's cursor. */
export const NEXT_CURSOR_HEADER = 'X-Next-Cursor';

/**
 * `limit` as a query parameter: plain digits only, so that '1e2', ' 5' or '0x10' are refused
 * rather than read as some other number; 1 to 500, 100 when left out.
 */
export const pageLimitSchema = z
  .string({ error: m.invalidPageLimit })
  .max(6, { error: m.invalidPageLimit, abort: true })
  .regex(/^\d{1,6}$/, { error: m.invalidPageLimit })
  .transform(Number)
  .refine((limit) => limit >= 1 && limit <= PAGE_LIMIT_MAX, { error: m.invalidPageLimit })
  .default(PAGE_LIMIT_DEFAULT);

/**
 * `cursor`: the opaque `nextCursor` (or `X-Next-Cursor`) of the previous page, sent back as it
 * came. Only its alphabet (base64url) and length are checked here; the server decodes it.
 */
export const pageCursorSchema = z
  .string({ error: m.invalidCursor })
  .max(1024, { error: m.invalidCursor, abort: true })
  .regex(/^[A-Za-z0-9_-]{1,1024}$/, { error: m.invalidCursor })
  .optional();
