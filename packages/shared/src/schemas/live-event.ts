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
  /** An account's name, photo, e-mail, role or language changed: `data.userId`. */
  'user.updated',
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

/**
 * `POST /api/events/ticket`: a single-use ticket, valid for 30 s, for opening the stream with
 * `GET /api/events?ticket=…` (an EventSource cannot send the bearer header).
 */
export const eventTicketSchema = z.object({
  ticket: z.string(),
  expiresAt: z.string(),
});
export type EventTicket = z.infer<typeof eventTicketSchema>;

/** What the stream's first event, `ready`, carries: the log's head when the stream opened. */
export const LIVE_READY_EVENT = 'ready';
export const liveReadySchema = z.object({ lastEventId: z.number().int() });
