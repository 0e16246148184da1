import { z } from 'zod';
import { validationMessages as m } from '../messages.js';
import { emailSchema, isoDateTime, roleSchema } from './common.js';
import { pageCursorSchema, pageLimitSchema } from './pagination.js';

/** POST /api/invites: the role it grants, whom it is for (optional), how long it lasts. */
export const createInviteSchema = z.object({
  role: roleSchema.default('member'),
  email: emailSchema.nullable().optional(),
  expiresInDays: z
    .number({ error: m.invalidExpiresInDays })
    .int({ error: m.invalidExpiresInDays })
    .min(1, { error: m.invalidExpiresInDays })
    .max(30, { error: m.invalidExpiresInDays })
    .default(7),
});
export type CreateInviteInput = z.input<typeof createInviteSchema>;

export const inviteStatusSchema = z.enum(['pending', 'used', 'expired', 'revoked']);
export type InviteStatus = z.infer<typeof inviteStatusSchema>;

export const inviteSchema = z
  .object({
    _id: z.string(),
    role: roleSchema,
    email: z
      .string()
      .nullable()
      .meta({ description: 'Only this address may use it; null: anyone' }),
    status: inviteStatusSchema,
    createdBy: z
      .object({ _id: z.string(), name: z.string() })
      .nullable()
      .meta({ description: 'The admin who made it; null once deleted' }),
    createdAt: isoDateTime,
    expiresAt: isoDateTime,
    usedAt: isoDateTime.nullable(),
    revokedAt: isoDateTime.nullable(),
  })
  .meta({ id: 'Invite', description: 'An invitation link (its token is shown only once).' });
export type Invite = z.infer<typeof inviteSchema>;

export const createdInviteSchema = inviteSchema
  .extend({
    token: z.string().meta({ description: 'Shown only now: only its hash is kept' }),
    url: z.string().meta({ description: 'The link to hand over: `/signup?invite=<token>`' }),
  })
  .meta({ id: 'CreatedInvite', description: 'A new invitation with its link, shown once.' });
export type CreatedInvite = z.infer<typeof createdInviteSchema>;

export const inviteListSchema = z.array(inviteSchema).meta({ id: 'InviteList' });

export const inviteListQuerySchema = z.object({
  limit: pageLimitSchema,
  cursor: pageCursorSchema,
});

export const inviteLookupQuerySchema = z.object({
  token: z
    .string({ error: m.inviteTokenRequired })
    .max(128, { error: m.inviteTokenRequired, abort: true })
    .regex(/^[A-Za-z0-9_-]{1,128}$/, { error: m.inviteTokenRequired }),
});

export const inviteLookupSchema = z
  .object({ role: roleSchema, email: z.string().nullable() })
  .meta({
    id: 'InviteLookup',
    description: 'What a usable invitation grants, for the sign-up page.',
  });
