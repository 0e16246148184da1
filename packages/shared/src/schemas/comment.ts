import { z } from 'zod';
import { validationMessages as m } from '../messages.js';
import { isoDateTime, textSchema } from './common.js';
import { activityActorSchema } from './activity.js';
import { pageCursorSchema, pageLimitSchema } from './pagination.js';

export const COMMENT_MAX = 10_000;
export const MENTIONS_MAX = 50;

// Ids as text (not checked as UUIDs here): the server answers any id that names nobody who can
// see the task with the same 400 naming `mentions`.
const mentionsSchema = z
  .array(z.string({ error: m.invalidMentions }).max(64, { error: m.invalidMentions }), {
    error: m.invalidMentions,
  })
  .max(MENTIONS_MAX, { error: m.tooManyMentions })
  .meta({ description: 'Ids of the people mentioned; each must be able to see the task' });

/** A comment: Markdown text, with the people it mentions. */
export const createCommentSchema = z.object({
  body: textSchema({
    max: COMMENT_MAX,
    tooLong: m.commentTooLong,
    required: m.commentRequired,
    trim: false,
  }).refine((body) => body.trim().length > 0, { error: m.commentRequired }),
  mentions: mentionsSchema.default([]),
});
export type CreateCommentInput = z.input<typeof createCommentSchema>;

export const updateCommentSchema = z.object({
  body: createCommentSchema.shape.body,
  mentions: mentionsSchema.optional(),
});
export type UpdateCommentInput = z.input<typeof updateCommentSchema>;

export const commentSchema = z
  .object({
    _id: z.string(),
    taskId: z.string(),
    author: activityActorSchema
      .nullable()
      .meta({ description: 'Who wrote it; null once that user is deleted' }),
    body: z.string().meta({ description: 'Markdown, as written (rendered without raw HTML)' }),
    mentions: z.array(z.string()),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
    edited: z.boolean().meta({ description: 'True once its author changed it' }),
    editedAt: isoDateTime.nullable().meta({ description: 'When last edited; null: never' }),
  })
  .meta({ id: 'Comment', description: 'A comment on a task.' });
export type Comment = z.infer<typeof commentSchema>;

export const commentListSchema = z.array(commentSchema).meta({ id: 'CommentList' });

export const commentListQuerySchema = z.object({
  limit: pageLimitSchema,
  cursor: pageCursorSchema,
});

export const mentionableListSchema = z
  .array(activityActorSchema)
  .meta({ id: 'MentionableList', description: 'The people who can see a task, by name.' });
