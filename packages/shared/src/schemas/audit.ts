import { z } from 'zod';
import { isoDateTime } from './common.js';
import { pageCursorSchema, pageLimitSchema } from './pagination.js';

export const auditEntrySchema = z
  .object({
    _id: z.string(),
    actor: z
      .object({ _id: z.string().nullable(), name: z.string() })
      .meta({ description: 'Who did it, with their name as it was then' }),
    action: z.string().meta({
      description:
        'What: user.create, user.update, user.role, user.deactivate, user.reactivate, user.delete, user.password-reset-link, ' +
        'invite.create, invite.revoke, settings.admin-invite-token',
    }),
    target: z
      .object({ type: z.string(), _id: z.string().nullable(), label: z.string().nullable() })
      .meta({ description: 'What it was done to' }),
    data: z.record(z.string(), z.unknown()),
    at: isoDateTime,
  })
  .meta({ id: 'AuditEntry', description: 'One admin change, recorded with the change itself.' });
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditListSchema = z.array(auditEntrySchema).meta({ id: 'AuditList' });

export const auditListQuerySchema = z.object({
  limit: pageLimitSchema,
  cursor: pageCursorSchema,
});
