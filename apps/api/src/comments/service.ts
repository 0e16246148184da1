import type { Kysely } from 'kysely';
import { z } from 'zod';
import { apiMessages, type Comment, type UpdateCommentInput } from '@task-manager/shared';
import { recordActivity } from '../activity/service.js';
import type { Database } from '../db/tables.js';
import { BadRequest, Forbidden, NotFound } from '../errors.js';
import { decodeCursor, encodeCursor } from '../http/cursor.js';
import type { RequestUser } from '../http/request-user.js';
import type { TaskService } from '../tasks/service.js';
import { canBeMentioned, canDeleteComment, canEditComment } from './policy.js';
import {
  deleteComment,
  findComment,
  insertComment,
  listComments,
  mentionCandidates,
  peopleWhoSee,
  updateComment,
  type CommentView,
} from './repository.js';
import { newRowId } from '../db/row-ids.js';

const cursorShape = z.tuple([z.string().min(1).max(64), z.uuid()]);

function parseMentions(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

function toApi(row: CommentView): Comment {
  return {
    _id: row.id,
    taskId: row.task_id,
    author:
      row.author_id && row.author_name !== null
        ? { _id: row.author_id, name: row.author_name, profileImageUrl: row.author_image }
        : null,
    body: row.body,
    mentions: parseMentions(row.mentions),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    edited: row.edited_at !== null,
    editedAt: row.edited_at,
  };
}

export class CommentService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly tasks: TaskService,
  ) {}

  /** A page of a task's comments, oldest first. */
  async list(user: RequestUser, taskId: string, query: { limit: number; cursor?: string }) {
    await this.tasks.assertVisible(user, taskId);
    const after = query.cursor ? decodeCursor(query.cursor, cursorShape) : undefined;
    const rows = await listComments(this.db, taskId, { limit: query.limit + 1, after });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      comments: page.map(toApi),
      nextCursor:
        rows.length > query.limit && last ? encodeCursor([last.created_at, last.id]) : null,
    };
  }

  /** The people who can see the task, who may be mentioned in its comments. */
  async mentionable(user: RequestUser, taskId: string) {
    await this.tasks.assertVisible(user, taskId);
    const people = await peopleWhoSee(this.db, taskId);
    return people.map((person) => ({
      _id: person.id,
      name: person.name,
      profileImageUrl: person.profile_image_url,
    }));
  }

  async create(
    user: RequestUser,
    taskId: string,
    input: { body: string; mentions: string[] },
  ): Promise<Comment> {
    return this.tasks.changeWithin(user, taskId, async (trx) => {
      const mentions = await this.checkMentions(trx, taskId, input.mentions);
      const now = new Date().toISOString();
      const id = newRowId();
      await insertComment(trx, {
        id,
        task_id: taskId,
        author_id: user.id,
        body: input.body,
        mentions: JSON.stringify(mentions),
        created_at: now,
        updated_at: now,
        edited_at: null,
      });
      await recordActivity(trx, taskId, user.id, [
        { type: 'comment.added', data: { commentId: id } },
      ]);
      return toApi((await findComment(trx, id))!);
    });
  }

  /** Its author edits it (403 for anyone else who can see it); marked edited. */
  async update(
    user: RequestUser,
    id: string,
    input: Omit<UpdateCommentInput, 'body'> & { body: string },
  ): Promise<Comment> {
    const comment = await this.visibleComment(user, id);
    if (!canEditComment(user, comment)) throw Forbidden(apiMessages.notCommentAuthor);
    return this.tasks.changeWithin(user, comment.task_id, async (trx) => {
      const mentions = input.mentions
        ? await this.checkMentions(trx, comment.task_id, input.mentions)
        : parseMentions(comment.mentions);
      const now = new Date().toISOString();
      await updateComment(trx, id, {
        body: input.body,
        mentions: JSON.stringify(mentions),
        updated_at: now,
        edited_at: now,
      });
      const row = await findComment(trx, id);
      if (!row) throw NotFound(apiMessages.commentNotFound);
      return toApi(row);
    });
  }

  /** Its author or an admin deletes it. */
  async delete(user: RequestUser, id: string): Promise<void> {
    const comment = await this.visibleComment(user, id);
    if (!canDeleteComment(user, comment)) throw Forbidden(apiMessages.notCommentAuthorOrAdmin);
    if (!(await deleteComment(this.db, id))) throw NotFound(apiMessages.commentNotFound);
  }

  /** The comment, when its task is visible to `user`; 404 otherwise, as for an unknown id. */
  private async visibleComment(user: RequestUser, id: string) {
    const comment = await findComment(this.db, id);
    if (!comment || !(await this.tasks.canSee(user, comment.task_id))) {
      throw NotFound(apiMessages.commentNotFound);
    }
    return comment;
  }

  /**
   * The mentioned ids, once each: every one must be an active user who can see the task (an
   * admin, or an assignee); anything else is refused (400 naming `mentions`), so that a mention
   * never tells anyone about a task they cannot see.
   */
  private async checkMentions(trx: Kysely<Database>, taskId: string, ids: string[]) {
    const unique = [...new Set(ids)];
    const found = new Map(
      (await mentionCandidates(trx, taskId, unique)).map((user) => [user.id, user]),
    );
    for (const id of unique) {
      const user = found.get(id);
      if (!user) {
        throw BadRequest(apiMessages.mentionNotFound, [
          { path: 'mentions', message: `${apiMessages.mentionNotFound}: ${id}` },
        ]);
      }
      if (!canBeMentioned(user)) {
        throw BadRequest(apiMessages.mentionCannotSee, [
          { path: 'mentions', message: `${apiMessages.mentionCannotSee}: ${id}` },
        ]);
      }
    }
    return unique;
  }
}
