import { z } from 'zod';
import { validationMessages as m } from '../messages.js';
import {
  emailSchema,
  nameSchema,
  newPasswordSchema,
  profileImageUrlSchema,
  refusePasswordLikeAccount,
  sendsAnyField,
} from './common.js';
import { userSchema } from './user.js';

export const loginSchema = z.object({
  email: emailSchema,
  // Sign-in only checks presence: an account's password is whatever it was set to.
  password: z
    .string({ error: m.passwordRequired })
    .max(1024, { error: m.passwordTooLong, abort: true })
    .min(1, { error: m.passwordRequired }),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const registerSchema = z
  .object({
    name: nameSchema,
    email: emailSchema,
    password: newPasswordSchema,
    profileImageUrl: profileImageUrlSchema,
    // A numeric code sent as a JSON number is read as the digits it shows.
    adminInviteToken: z
      .union(
        [
          z.string().max(64, { error: m.inviteTokenFormat }),
          z.number().int().nonnegative(),
          z.null(),
        ],
        {
          error: m.inviteTokenFormat,
        },
      )
      .optional()
      .transform((value) => (value == null ? undefined : String(value).trim() || undefined)),
  })
  .refine(refusePasswordLikeAccount, { error: m.passwordLikeAccount, path: ['password'] });
export type RegisterInput = z.input<typeof registerSchema>;

export const updateProfileSchema = z
  .object({
    name: nameSchema.optional(),
    profileImageUrl: profileImageUrlSchema,
    currentPassword: z.string().max(1024, { abort: true }).optional(),
    newPassword: newPasswordSchema.optional(),
  })
  .refine(sendsAnyField(['currentPassword']), { error: m.nothingToUpdate })
  .refine((value) => value.newPassword === undefined || !!value.currentPassword, {
    error: m.currentPasswordRequired,
    path: ['currentPassword'],
  });
export type UpdateProfileInput = z.input<typeof updateProfileSchema>;

export const authResponseSchema = userSchema
  .extend({
    token: z.string().meta({ description: 'A JWT: send it as `Authorization: Bearer <token>`' }),
  })
  .meta({ id: 'AuthResponse', description: 'The signed-in user and a fresh token.' });
export type AuthResponse = z.infer<typeof authResponseSchema>;

export const imageUploadResponseSchema = z
  .object({
    imageUrl: z.string().meta({
      description:
        'Where the stored image is served: the relative path `/api/images/<id>`, to send as profileImageUrl',
    }),
  })
  .meta({ id: 'ImageUploadResponse', description: 'Where the uploaded image is served.' });
export type ImageUploadResponse = z.infer<typeof imageUploadResponseSchema>;
