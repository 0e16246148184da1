import { z } from 'zod';

export const fieldErrorSchema = z
  .object({
    path: z
      .string()
      .meta({ description: 'The field, dot-separated for nested ones ("" for the body)' }),
    message: z.string(),
  })
  .meta({ id: 'FieldError', description: 'One problem with one field of the input.' });
export const errorResponseSchema = z
  .object({
    message: z.string().meta({ description: 'What went wrong, fit to show to a person' }),
    code: z.string().meta({
      description:
        'What went wrong, for programs: stable across versions and languages, e.g. `not_found`, ' +
        '`too_many_requests`, `wrong_current_password`',
    }),
    errors: z
      .array(fieldErrorSchema)
      .optional()
      .meta({ description: 'Validation errors only: every problem found, first one first' }),
    maxBytes: z.number().int().optional().meta({
      description: 'A file too large only (`file_too_large`): the largest accepted, in bytes',
    }),
  })
  .meta({ id: 'ErrorResponse', description: 'Every error answer (4xx and 5xx).' });
export type FieldError = z.infer<typeof fieldErrorSchema>;
export type ErrorResponse = z.infer<typeof errorResponseSchema>;
