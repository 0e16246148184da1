import { z } from 'zod';
import { validationMessages as m } from '../messages.js';
import {
  emailSchema,
  idSchema,
  isoDateTime,
  languageSchema,
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
    active: z.boolean().meta({
      description: 'False once an admin deactivated the account: it cannot sign in',
    }),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
    language: languageSchema
      .nullable()
      .optional()
      .meta({
        description:
          "Only in the signed-in person's own account (the profile and sign-in answers): the " +
          'language the app and e-mails speak to them; null: not chosen yet (e-mails in English)',
      }),
  })
  .meta({ id: 'User', description: 'A user, as every endpoint shows one (never a password).' });
export type User = z.infer<typeof userSchema>;

/** The signed-in person's own account (the profile, the sign-in answers): with their language. */
export type OwnUser = User & { language: z.infer<typeof languageSchema> | null };

export const userWithTaskCountsSchema = userSchema
  .extend({
    pendingTasks: z.number().int(),
    inProgressTasks: z.number().int(),
    completedTasks: z.number().int(),
  })
  .meta({
    id: 'UserWithTaskCounts',
    description: 'A user with the number of tasks assigned to them, by status.',
  });

export const userListResponseSchema = z.array(userWithTaskCountsSchema).meta({
  id: 'UserList',
  description:
    'One page of people (admins and members, active and deactivated unless filtered), by name; the next page is named by the X-Next-Cursor header.',
});
export type UserWithTaskCounts = z.infer<typeof userWithTaskCountsSchema>;

const userSearchSchema = textSchema({ max: 100, tooLong: m.invalidSearch })
  .optional()
  .transform((value) => (value ? value : undefined));

/** `true` or `false` as a query parameter. */
export const booleanQuerySchema = z
  .enum(['true', 'false'], { error: m.invalidActiveFilter })
  .transform((value) => value === 'true');

/**
 * GET /api/users: a page of people by name, optionally only those whose name or e-mail contains
 * `q` (or `search`, its older name), of one `role`, active or deactivated (`active`).
 */
export const userListQuerySchema = z.object({
  limit: pageLimitSchema,
  cursor: pageCursorSchema,
  q: userSearchSchema,
  search: userSearchSchema,
  role: roleSchema.optional(),
  active: booleanQuerySchema.optional(),
});

/** PATCH /api/users/:id: an admin changes someone's role or (de)activates them. */
export const patchUserSchema = z
  .object({
    role: roleSchema.optional(),
    active: z.boolean({ error: m.activeNotBoolean }).optional(),
    /** With `active: false`: who takes over the person's open (not Completed) tasks. */
    reassignTo: idSchema.optional(),
  })
  .refine(sendsAnyField(), { error: m.nothingToUpdate })
  .refine((input) => input.reassignTo === undefined || input.active === false, {
    error: m.reassignOnlyWhenDeactivating,
    path: ['reassignTo'],
  });
export type PatchUserInput = z.input<typeof patchUserSchema>;

/** DELETE /api/users/:id: whom the deleted person's tasks go to (none: left without them). */
export const deleteUserQuerySchema = z.object({
  reassignTo: idSchema.optional(),
});

/** A single-use link that lets its holder set a new password. */
export const passwordResetLinkSchema = z
  .object({
    url: z.string().meta({ description: 'A relative link, `/reset-password?token=...`' }),
    expiresAt: isoDateTime,
  })
  .meta({ id: 'PasswordResetLink', description: 'A single-use password-reset link.' });

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
