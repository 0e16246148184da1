import type { Kysely, Selectable } from 'kysely';
import type { CommentsTable, Database } from '../db/tables.js';

export type CommentRow = Selectable<CommentsTable>;

/** A comment with its author's name and photo (null once the author is deleted). */
export interface CommentView extends CommentRow {
  author_name: string | null;
  author_image: string | null;
}

/** Where a page starts: the (created_at, id) of the last comment of the previous page. */
export type CommentKey = readonly [createdAt: string, id: string];

function withAuthors(db: Kysely<Database>) {
  return db
    .selectFrom('comments as c')
    .leftJoin('users as u', 'u.id', 'c.author_id')
    .selectAll('c')
    .select(['u.name as author_name', 'u.profile_image_url as author_image']);
}

export async function findComment(db: Kysely<Database>, id: string) {
  return withAuthors(db).where('c.id', '=', id).executeTakeFirst();
}

/** A task's comments, oldest first, after `after`. */
export async function listComments(
  db: Kysely<Database>,
  taskId: string,
  page: { limit: number; after?: CommentKey },
): Promise<CommentView[]> {
  let query = withAuthors(db).where('c.task_id', '=', taskId);
  if (page.after) {
    const [createdAt, id] = page.after;
    query = query.where((eb) =>
      eb.or([
        eb('c.created_at', '>', createdAt),
        eb.and([eb('c.created_at', '=', createdAt), eb('c.id', '>', id)]),
      ]),
    );
  }
  return query.orderBy('c.created_at').orderBy('c.id').limit(page.limit).execute();
}

export async function insertComment(db: Kysely<Database>, row: CommentRow) {
  await db.insertInto('comments').values(row).execute();
}

export async function updateComment(
  db: Kysely<Database>,
  id: string,
  patch: Partial<Pick<CommentRow, 'body' | 'mentions' | 'updated_at' | 'edited_at'>>,
) {
  await db.updateTable('comments').set(patch).where('id', '=', id).execute();
}

export async function deleteComment(db: Kysely<Database>, id: string): Promise<boolean> {
  const result = await db.deleteFrom('comments').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Of `ids`, the active users, with their role, and whether they are assigned to `taskId`. */
export async function mentionCandidates(db: Kysely<Database>, taskId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('users as u')
    .leftJoin('task_assignees as ta', (join) =>
      join.onRef('ta.user_id', '=', 'u.id').on('ta.task_id', '=', taskId),
    )
    .select(['u.id', 'u.role', 'ta.user_id as assigned'])
    .where('u.id', 'in', ids)
    .where('u.active', '=', 1)
    .execute();
}

/** The active people who can see task `taskId`: every admin, and its assignees; by name. */
export async function peopleWhoSee(db: Kysely<Database>, taskId: string) {
  return db
    .selectFrom('users as u')
    .select(['u.id', 'u.name', 'u.profile_image_url'])
    .where('u.active', '=', 1)
    .where((eb) =>
      eb.or([
        eb('u.role', '=', 'admin'),
        eb(
          'u.id',
          'in',
          eb.selectFrom('task_assignees').select('user_id').where('task_id', '=', taskId),
        ),
      ]),
    )
    .orderBy('u.name')
    .orderBy('u.id')
    .execute();
}
