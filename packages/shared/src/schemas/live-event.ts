import { z } from 'zod';

/**
 * What `GET /api/events` (Server-Sent Events) sends: the SSE `event:` field is the type, `id:`
 * the position in the log (for Last-Event-ID), `data:` a JSON LiveEvent. Events name what
 * changed, never its contents: a client refetches what it shows.
 */
export const liveEventTypes = [
  'task.created',
  'task.updated',
  'task.deleted',
  'checklist.changed',
  'comment.added',
  'notification.created',
] as const;
export type LiveEventType = (typeof liveEventTypes)[number];

/**
 * Sent instead of a replay when the client's Last-Event-ID is older than what is kept: the
 * client refetches everything it shows.
 */
export const LIVE_RESET_EVENT = 'reset';

export const liveEventSchema = z.object({
  type: z.enum(liveEventTypes),
  taskId: z.string().nullable(),
  at: z.string(),
  data: z.record(z.string(), z.unknown()),
});
export type LiveEvent = z.infer<typeof liveEventSchema>;
