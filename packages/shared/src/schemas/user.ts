import { z } from 'zod';
import { validationMessages as m } from '../messages.js';
import {
  emailSchema,
  isoDateTime,
  nameSchema,
  newPasswordSchema,
  profileImageUrlSchema,
  roleSchema,
  sendsAnyField,
} from './common.js';

export const userSchema = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  role: roleSchema,
  profileImageUrl: z.string().nullable(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type User = z.infer<typeof userSchema>;

export const userWithTaskCountsSchema = userSchema.extend({
  pendingTasks: z.number().int(),
  inProgressTasks: z.number().int(),
  completedTasks: z.number().int(),
});
export type UserWithTaskCounts = z.infer<typeof userWithTaskCountsSchema>;

export const createUserSchema = z.object({
  name: nameSchema,
  email: emailSchema,
  password: newPasswordSchema,
  role: roleSchema.default('member'),
  profileImageUrl: profileImageUrlSchema,
});
export type CreateUserInput = z.input<typeof createUserSchema>;

export const updateUserSchema = z
  .object({
    name: nameSchema.optional(),
    email: emailSchema.optional(),
    role: roleSchema.optional(),
    password: newPasswordSchema.optional(),
    profileImageUrl: profileImageUrlSchema,
  })
  .refine(sendsAnyField(), {
    error: m.nothingToUpdate,
  });
export type UpdateUserInput = z.input<typeof updateUserSchema>;
