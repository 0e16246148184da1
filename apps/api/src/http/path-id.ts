import type { Request } from 'express';
import { idSchema } from '@task-manager/shared';
import { NotFound } from '../errors.js';

/**
 * The `:id` (or another id parameter) of the path. Ids are UUIDs, so anything else names
 * nothing: it gets the same 404 as an unknown id and never reaches the database (PostgreSQL
 * refuses text with a NUL byte).
 */
export function pathId(req: Request, notFoundMessage: string, param = 'id'): string {
  const id = String(req.params[param]);
  if (!idSchema.safeParse(id).success) throw NotFound(notFoundMessage);
  return id;
}
