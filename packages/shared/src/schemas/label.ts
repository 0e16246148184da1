import { z } from 'zod';
import { validationMessages as m } from '../messages.js';
import { idSchema, textSchema } from './common.js';

export const MAX_TASK_LABELS = 20;

/** A label's name: unique among labels whatever its case (the API answers 409 otherwise). */
const labelName = textSchema({
  max: 50,
  tooLong: m.labelNameTooLong,
  required: m.labelNameRequired,
});

/** `#rrggbb`, stored in lower case so that the same color is always spelled the same way. */
const labelColor = z
  .string({ error: m.labelColorInvalid })
  .max(7, { error: m.labelColorInvalid, abort: true })
  .regex(/^#[0-9a-fA-F]{6}$/, { error: m.labelColorInvalid })
  .transform((color) => color.toLowerCase());

export const createLabelSchema = z.object({ name: labelName, color: labelColor });
export type CreateLabelInput = z.input<typeof createLabelSchema>;
export type CreateLabelData = z.output<typeof createLabelSchema>;

export const updateLabelSchema = createLabelSchema
  .partial()
  .refine((value) => value.name !== undefined || value.color !== undefined, {
    error: m.nothingToUpdate,
  });
export type UpdateLabelInput = z.input<typeof updateLabelSchema>;
export type UpdateLabelData = z.output<typeof updateLabelSchema>;

export const labelSchema = z
  .object({
    _id: z.string().meta({ description: 'The label id (a UUID)' }),
    name: z.string(),
    color: z.string().meta({ description: '`#rrggbb`, lower case' }),
  })
  .meta({ id: 'Label', description: 'A label tasks can carry, shared by the whole team.' });
export type Label = z.infer<typeof labelSchema>;

export const labelListSchema = z
  .array(labelSchema)
  .meta({ id: 'LabelList', description: 'Every label, by name' });

/** The labels of a task as sent on create and update: label ids, duplicates dropped. */
export const taskLabelIdsSchema = z
  .array(idSchema, { error: m.invalidLabelIds })
  .max(MAX_TASK_LABELS, { error: m.tooManyLabels })
  .transform((ids) => [...new Set(ids)]);
