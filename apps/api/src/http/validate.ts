import type { z } from 'zod';
import { apiMessages } from '@task-manager/shared';
import { BadRequest } from '../errors.js';

/**
 * The path of the first text in `value` that holds a NUL character. PostgreSQL cannot store
 * one in text (it fails the whole query), so both engines refuse it as input, alike.
 */
export function pathOfNul(value: unknown, path: string[] = []): string[] | undefined {
  if (typeof value === 'string') return value.includes('\0') ? path : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, inner] of Object.entries(value)) {
    const found = pathOfNul(inner, [...path, key]);
    if (found) return found;
  }
  return undefined;
}

/**
 * Parses input with a shared schema. The first issue becomes the message (schemas list their
 * fields in the order the spec checks them); every issue is listed in `errors`.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  if (input !== undefined && (typeof input !== 'object' || Array.isArray(input))) {
    throw BadRequest(apiMessages.bodyNotObject);
  }
  const result = schema.safeParse(input ?? {});
  if (result.success) {
    // The parsed value: only fields the schema knows, so unknown keys cannot trip this.
    const nulAt = pathOfNul(result.data);
    if (nulAt) {
      throw BadRequest(apiMessages.nulCharacter, [
        { path: nulAt.join('.'), message: apiMessages.nulCharacter },
      ]);
    }
    return result.data;
  }
  const errors = result.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
  throw BadRequest(errors[0]?.message ?? apiMessages.validationFailed, errors);
}
