import { z } from 'zod';
import { validationMessages as m } from '../messages.js';
import {
  emailSchema,
  isoDateTime,
  nameSchema,
  newPasswordSchema,
  profileImageUrlSchema,
  refusePasswordLikeAccount,
  roleSchema,
  sendsAnyField,
  textSchema,
} from './common.js';
import { pageCursorSchema, pageLimitSchema } from './pagination.js';

export const userSchema = z
  .object({
    _id: z.string().meta({ description: 'The user id (a UUID)' }),
    name: z.string(),
    email: z.string(),
    role: roleSchema,
    profileImageUrl: z.string().nullable().meta({
      description: 'The photo: a path relative to this server (`/api/images/<id>`); null: none',
    }),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: 'User', description: 'A user, as every endpoint shows one (never a password).' });
export type User = z.infer<typeof userSchema>;

export const userWithTaskCountsSchema = userSchema
  .extend({
    pendingTasks: z.number().int(),
    inProgressTasks: z.number().int(),
    completedTasks: z.number().int(),
  })
  .meta({
    id: 'UserWithTaskCounts',
    description: 'A member with the number of tasks assigned to them, by status.',
  });

export const userListResponseSchema = z.array(userWithTaskCountsSchema).meta({
  id: 'UserList',
  description:
    'One page of members (not the admins), by name; the next page is named by the X-Next-Cursor header.',
});
export type UserWithTaskCounts = z.infer<typeof userWithTaskCountsSchema>;

/** GET /api/users: a page of members, optionally those whose name or e-mail contains `search`. */
export const userListQuerySchema = z.object({
  limit: pageLimitSchema,
  cursor: pageCursorSchema,
  search: textSchema({ max: 100, tooLong: m.invalidSearch })
    .optional()
    .transform((value) => (value ? value : undefined)),
});

export const createUserSchema = z
  .object({
    name: nameSchema,
    email: emailSchema,
    password: newPasswordSchema,
    role: roleSchema.default('member'),
    profileImageUrl: profileImageUrlSchema,
  })
  .refine(refusePasswordLikeAccount, { error: m.passwordLikeAccount, path: ['password'] });
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
  })
  .refine(refusePasswordLikeAccount, { error: m.passwordLikeAccount, path: ['password'] });
export type UpdateUserInput = z.input<typeof updateUserSchema>;
