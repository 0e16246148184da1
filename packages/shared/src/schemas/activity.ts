import { z } from 'zod';
import { isoDateTime } from './common.js';
import { pageCursorSchema, pageLimitSchema } from './pagination.js';

/**
 * The kinds of change the activity history records, with what `data` holds for each. Stable
 * names: clients may rely on them.
 */
export const ACTIVITY_TYPES = [
  'task.created',
  'task.updated',
  'assignee.added',
  'assignee.removed',
  'checklist.added',
  'checklist.renamed',
  'checklist.removed',
  'checklist.reordered',
  'checklist.ticked',
  'checklist.unticked',
  'status.changed',
  'link.added',
  'link.removed',
  'file.added',
  'file.removed',
  'comment.added',
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

export const ACTIVITY_TYPES_DOC =
  'What changed, and what `data` holds: ' +
  '`task.created` {title}; ' +
  '`task.updated` {changes: {<field>: {before, after}}} for title, description, priority, ' +
  'dueDate and labels (label ids); ' +
  '`assignee.added` / `assignee.removed` {userId, name}; ' +
  '`checklist.added` {itemId, text}; `checklist.renamed` {itemId, before, after}; ' +
  '`checklist.removed` {itemId, text}; `checklist.reordered` {itemIds}; ' +
  '`checklist.ticked` / `checklist.unticked` {itemId, text}; ' +
  "`status.changed` {before, after, reason: 'checklist' (the checklist moved it) or 'move' (an " +
  'explicit status change)}; `link.added` / `link.removed` {url}; ' +
  '`file.added` / `file.removed` {fileId, name}; `comment.added` {commentId}.';

export const activityActorSchema = z
  .object({ _id: z.string(), name: z.string(), profileImageUrl: z.string().nullable() })
  .meta({ id: 'ActivityActor', description: 'A person as shown beside what they did.' });

export const activitySchema = z
  .object({
    _id: z.string(),
    type: z.enum(ACTIVITY_TYPES).meta({ description: ACTIVITY_TYPES_DOC }),
    actor: activityActorSchema
      .nullable()
      .meta({ description: 'Who did it; null once that user is deleted' }),
    at: isoDateTime,
    data: z.record(z.string(), z.unknown()),
    taskId: z.string(),
    task: z
      .object({ _id: z.string(), title: z.string() })
      .optional()
      .meta({ description: 'The task it happened to (GET /api/activity only)' }),
  })
  .meta({ id: 'Activity', description: 'One change to a task, recorded with the change.' });
export type Activity = z.infer<typeof activitySchema>;

export const activityListSchema = z.array(activitySchema).meta({ id: 'ActivityList' });

export const activityListQuerySchema = z.object({
  limit: pageLimitSchema,
  cursor: pageCursorSchema,
});
