import { z } from 'zod';
import type { ZodOpenApiResponseObject, oas31 } from 'zod-openapi';
import { errorResponseSchema } from '@task-manager/shared';

/** The pieces endpoint declarations document their answers with. */

export const json = (schema: z.ZodType) => ({ 'application/json': { schema } });

export const binary = (contentMediaType: string) => ({
  schema: { type: 'string', format: 'binary', contentMediaType } satisfies oas31.SchemaObject,
});

export const ok = (description: string, schema: z.ZodType): ZodOpenApiResponseObject => ({
  description,
  content: json(schema),
});

/** An error answer as a named component: every one is `{message, code, errors?}`. */
export const errorResponse = (id: string, description: string): ZodOpenApiResponseObject => ({
  id,
  description,
  content: json(errorResponseSchema),
});

const retryAfter = (required: boolean, description: string) => {
  const seconds = z.string().regex(/^\d+$/);
  return z.object({
    'Retry-After': (required ? seconds : seconds.optional()).meta({ description }),
  });
};

/** The common error answers. */
export const errors = {
  400: errorResponse(
    'ValidationError',
    'Invalid input: `message` is the first problem, `errors` lists every one (`{path, message}`). ' +
      'Malformed JSON and a body that is no JSON object get a `message` only.',
  ),
  401: errorResponse('Unauthorized', 'No valid token: missing, expired, or no longer valid.'),
  403: errorResponse('Forbidden', 'Signed in, but not allowed (admins only).'),
  404: errorResponse('NotFound', 'No such resource, or one the caller may not see.'),
  409: errorResponse('Conflict', 'The change conflicts with existing data.'),
  413: errorResponse('PayloadTooLarge', 'The request body is too large.'),
  429: {
    ...errorResponse(
      'TooManyRequests',
      'Too many requests from this address: wait for `Retry-After` seconds.',
    ),
    headers: retryAfter(true, 'Seconds until the next request may be made'),
  },
  503: {
    ...errorResponse(
      'ServiceUnavailable',
      'Not ready: the database does not answer, the server is shutting down, or it is saturated ' +
        'with password work for a moment: retry after `Retry-After` seconds when it is given.',
    ),
    headers: retryAfter(false, 'Seconds to wait before trying again'),
  },
} satisfies Record<number, ZodOpenApiResponseObject>;
