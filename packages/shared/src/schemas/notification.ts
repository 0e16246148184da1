import { z } from 'zod';
import { isoDateTime } from './common.js';
import { pageCursorSchema, pageLimitSchema } from './pagination.js';

/**
 * What a person is told about (issue 17). Stable names: clients and e-mail preferences use them.
 * `commented` is a comment on a task you are assigned to (not sent as well when the same comment
 * mentions you: that is `mentioned`); `due_soon` a task due tomorrow; `overdue` one past due.
 */
export const NOTIFICATION_TYPES = [
  'assigned',
  'unassigned',
  'mentioned',
  'commented',
  'due_changed',
  'due_soon',
  'overdue',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** How a person wants e-mail of one kind: at once, in the daily digest, or not at all. */
export const EMAIL_MODES = ['instant', 'digest', 'never'] as const;
export type EmailMode = (typeof EMAIL_MODES)[number];

/** Defaults: at once for being assigned and mentioned, the daily digest for the rest. */
export const DEFAULT_EMAIL_MODES: Readonly<Record<NotificationType, EmailMode>> = {
  assigned: 'instant',
  unassigned: 'digest',
  mentioned: 'instant',
  commented: 'digest',
  due_changed: 'digest',
  due_soon: 'digest',
  overdue: 'digest',
};

export const notificationSchema = z
  .object({
    _id: z.string(),
    type: z.enum(NOTIFICATION_TYPES),
    task: z
      .object({ _id: z.string(), title: z.string() })
      .nullable()
      .meta({
        description:
          'The task, while the person may still see it; null once it is deleted or they were ' +
          'removed from it (`data.taskTitle` keeps its title)',
      }),
    actor: z
      .object({ _id: z.string(), name: z.string(), profileImageUrl: z.string().nullable() })
      .nullable()
      .meta({ description: 'Who caused it; null for reminders and deleted users' }),
    data: z.record(z.string(), z.unknown()).meta({
      description:
        '`taskTitle` always; `dueDate` for due_changed, due_soon and overdue; `commentId` for ' +
        'mentioned and commented',
    }),
    createdAt: isoDateTime,
    readAt: isoDateTime.nullable(),
  })
  .meta({ id: 'Notification', description: 'Something a person was told about.' });
export type Notification = z.infer<typeof notificationSchema>;

export const notificationPageSchema = z
  .object({
    items: z.array(notificationSchema),
    nextCursor: z
      .string()
      .nullable()
      .meta({ description: 'Send as `cursor` for the next page; null on the last page' }),
  })
  .meta({ id: 'NotificationPage' });
export type NotificationPage = z.infer<typeof notificationPageSchema>;

export const notificationListQuerySchema = z.object({
  limit: pageLimitSchema,
  cursor: pageCursorSchema,
  unread: z.enum(['true', 'false']).optional(),
});

export const notificationCountSchema = z
  .object({ count: z.int().min(0) })
  .meta({ id: 'NotificationCount', description: 'How many notifications are unread.' });

export const markNotificationsReadSchema = z.union([
  z.strictObject({ ids: z.array(z.uuid()).min(1).max(500) }),
  z.strictObject({ all: z.literal(true) }),
]);
export type MarkNotificationsReadInput = z.infer<typeof markNotificationsReadSchema>;

const emailModeSchema = z.enum(EMAIL_MODES);

export const notificationPreferencesSchema = z
  .object({
    email: z.object({
      assigned: emailModeSchema,
      unassigned: emailModeSchema,
      mentioned: emailModeSchema,
      commented: emailModeSchema,
      due_changed: emailModeSchema,
      due_soon: emailModeSchema,
      overdue: emailModeSchema,
    }),
    emailEnabled: z
      .boolean()
      .meta({ description: 'Whether this server sends e-mail at all (SMTP_URL is set)' }),
  })
  .meta({ id: 'NotificationPreferences' });
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;

export const updateNotificationPreferencesSchema = z.strictObject({
  email: z.strictObject({
    assigned: emailModeSchema.optional(),
    unassigned: emailModeSchema.optional(),
    mentioned: emailModeSchema.optional(),
    commented: emailModeSchema.optional(),
    due_changed: emailModeSchema.optional(),
    due_soon: emailModeSchema.optional(),
    overdue: emailModeSchema.optional(),
  }),
});
export type UpdateNotificationPreferencesInput = z.infer<
  typeof updateNotificationPreferencesSchema
>;

/** Whose tasks a calendar feed holds: one's own, or (admins only) every task. */
export const CALENDAR_SCOPES = ['mine', 'all'] as const;
export type CalendarScope = (typeof CALENDAR_SCOPES)[number];

export const calendarFeedSchema = z
  .object({
    url: z.string().meta({ description: 'The secret iCalendar address to subscribe to' }),
    scope: z.enum(CALENDAR_SCOPES),
  })
  .meta({ id: 'CalendarFeed' });
export type CalendarFeed = z.infer<typeof calendarFeedSchema>;

export const updateCalendarFeedSchema = z.strictObject({ scope: z.enum(CALENDAR_SCOPES) });
