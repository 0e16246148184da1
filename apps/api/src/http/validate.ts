import type { z } from 'zod';
import { apiMessages } from '@task-manager/shared';
import { BadRequest } from '../errors.js';

/**
 * Parses input with a shared schema. The first issue becomes the message (schemas list their
 * fields in the order the spec checks them); every issue is listed in `errors`.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  if (input !== undefined && (typeof input !== 'object' || Array.isArray(input))) {
    throw BadRequest(apiMessages.bodyNotObject);
  }
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const errors = result.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
  throw BadRequest(errors[0]?.message ?? apiMessages.validationFailed, errors);
}
