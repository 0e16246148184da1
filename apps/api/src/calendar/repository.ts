import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.js';

export async function findFeedOf(db: Kysely<Database>, userId: string) {
  return db
    .selectFrom('calendar_feeds')
    .select(['secret', 'scope'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Creates the person's feed unless they have one (two first calls at once: one wins). */
export async function insertFeedIfMissing(
  db: Kysely<Database>,
  row: { user_id: string; secret: string; scope: string; created_at: string },
): Promise<void> {
  await db
    .insertInto('calendar_feeds')
    .values(row)
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
}

export async function updateFeed(
  db: Kysely<Database>,
  userId: string,
  patch: { secret?: string; scope?: string },
): Promise<void> {
  await db.updateTable('calendar_feeds').set(patch).where('user_id', '=', userId).execute();
}

/** The feed of a secret, with its owner (active people only). */
export async function findFeedBySecret(db: Kysely<Database>, secret: string) {
  return db
    .selectFrom('calendar_feeds as f')
    .innerJoin('users as u', 'u.id', 'f.user_id')
    .select(['f.user_id', 'f.scope', 'u.role', 'u.name', 'u.language'])
    .where('f.secret', '=', secret)
    .where('u.active', '=', 1)
    .executeTakeFirst();
}

/** The tasks a feed shows: every task (`userId` undefined) or those assigned to the person. */
export async function tasksForFeed(db: Kysely<Database>, userId: string | undefined) {
  let query = db
    .selectFrom('tasks as t')
    .select([
      't.id',
      't.title',
      't.description',
      't.status',
      't.priority',
      't.due_date',
      't.updated_at',
    ]);
  if (userId !== undefined) {
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('task_assignees as ta')
          .select('ta.task_id')
          .whereRef('ta.task_id', '=', 't.id')
          .where('ta.user_id', '=', userId),
      ),
    );
  }
  return query.orderBy('t.due_date').orderBy('t.id').execute();
}
