import { z } from 'zod';
import { validationMessages as m } from '../messages.js';
import {
  emailSchema,
  languageSchema,
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

/** The token of an invitation or reset link: 43 base64url characters (32 random bytes). */
export const inviteTokenSchema = z
  .string({ error: m.inviteTokenRequired })
  .max(128, { error: m.inviteTokenRequired, abort: true })
  .regex(/^[A-Za-z0-9_-]{1,128}$/, { error: m.inviteTokenRequired });

export const registerSchema = z
  .object({
    name: nameSchema,
    email: emailSchema,
    password: newPasswordSchema,
    profileImageUrl: profileImageUrlSchema,
    language: languageSchema.optional().meta({
      description: 'The language of the app signed up in: the e-mails speak it too',
    }),
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
    /** An invitation link's token (`/signup?invite=<token>`): the role comes from it. */
    invite: inviteTokenSchema.optional(),
  })
  .refine(refusePasswordLikeAccount, { error: m.passwordLikeAccount, path: ['password'] });
export type RegisterInput = z.input<typeof registerSchema>;

export const updateProfileSchema = z
  .object({
    name: nameSchema.optional(),
    email: emailSchema.optional(),
    profileImageUrl: profileImageUrlSchema,
    currentPassword: z.string().max(1024, { abort: true }).optional(),
    newPassword: newPasswordSchema.optional(),
    language: languageSchema.optional().meta({
      description: 'The language the app and your e-mails speak to you in',
    }),
  })
  .refine(sendsAnyField(['currentPassword']), { error: m.nothingToUpdate })
  .refine((value) => value.newPassword === undefined || !!value.currentPassword, {
    error: m.currentPasswordRequired,
    path: ['currentPassword'],
  })
  .refine((value) => value.email === undefined || !!value.currentPassword, {
    error: m.currentPasswordForEmail,
    path: ['currentPassword'],
  })
  // "Changing" to the same password would sign every other session out for nothing.
  .refine(
    (value) => value.newPassword === undefined || value.newPassword !== value.currentPassword,
    {
      error: m.newPasswordSame,
      path: ['newPassword'],
    },
  );
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

/** POST /api/auth/password-reset/request. */
export const passwordResetRequestSchema = z.object({ email: emailSchema });

/** POST /api/auth/password-reset/confirm: the link's token and the new password. */
export const passwordResetConfirmSchema = z.object({
  token: z
    .string({ error: m.resetTokenRequired })
    .max(128, { error: m.resetTokenRequired, abort: true })
    .regex(/^[A-Za-z0-9_-]{1,128}$/, { error: m.resetTokenRequired }),
  password: newPasswordSchema,
});

export const signupModeSchema = z.enum(['open', 'invite']);
export type SignupMode = z.infer<typeof signupModeSchema>;

export const authOptionsSchema = z
  .object({
    signupMode: signupModeSchema.meta({
      description: '`invite`: sign-up only with an invitation link',
    }),
    passwordResetByEmail: z.boolean().meta({
      description: 'Whether a forgotten password can be reset by e-mail (SMTP is set up)',
    }),
  })
  .meta({ id: 'AuthOptions', description: 'How this server lets people in.' });

export const settingsSchema = z
  .object({
    signupMode: signupModeSchema,
    adminInviteToken: z.string().meta({ description: "The spec's 6-digit admin invite code" }),
  })
  .meta({ id: 'Settings', description: 'Sign-up settings an admin sees.' });

export const adminInviteTokenResponseSchema = z
  .object({ adminInviteToken: z.string() })
  .meta({ id: 'AdminInviteToken', description: 'The new 6-digit admin invite code.' });
