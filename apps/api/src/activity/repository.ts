import type { Kysely, Selectable } from 'kysely';
import type { Database, TaskActivityTable } from '../db/tables.js';

export type ActivityRow = Selectable<TaskActivityTable>;

/** An entry with its actor's name and photo (null once deleted), and its task's title. */
export interface ActivityView extends ActivityRow {
  actor_name: string | null;
  actor_image: string | null;
  task_title: string;
}

/** Where a page starts: the (at, seq, id) of the last entry of the previous page. */
export type ActivityKey = readonly [at: string, seq: number, id: string];

export async function insertActivityRows(db: Kysely<Database>, rows: ActivityRow[]) {
  if (rows.length === 0) return;
  await db.insertInto('task_activity').values(rows).execute();
}

function withNames(db: Kysely<Database>) {
  return db
    .selectFrom('task_activity as a')
    .innerJoin('tasks as t', 't.id', 'a.task_id')
    .leftJoin('users as u', 'u.id', 'a.actor_id')
    .select([
      'a.id',
      'a.task_id',
      'a.actor_id',
      'a.type',
      'a.data',
      'a.at',
      'a.seq',
      'u.name as actor_name',
      'u.profile_image_url as actor_image',
      't.title as task_title',
    ]);
}

/** A task's history, oldest first, after `after`. */
export async function listTaskActivity(
  db: Kysely<Database>,
  taskId: string,
  page: { limit: number; after?: ActivityKey },
): Promise<ActivityView[]> {
  let query = withNames(db).where('a.task_id', '=', taskId);
  const after = page.after;
  if (after) {
    const [at, seq, id] = after;
    query = query.where((eb) =>
      eb.or([
        eb('a.at', '>', at),
        eb.and([eb('a.at', '=', at), eb('a.seq', '>', seq)]),
        eb.and([eb('a.at', '=', at), eb('a.seq', '=', seq), eb('a.id', '>', id)]),
      ]),
    );
  }
  return query.orderBy('a.at').orderBy('a.seq').orderBy('a.id').limit(page.limit).execute();
}

/** Every task's history, newest first, before `before`. */
export async function listRecentActivity(
  db: Kysely<Database>,
  page: { limit: number; before?: ActivityKey },
): Promise<ActivityView[]> {
  let query = withNames(db);
  const before = page.before;
  if (before) {
    const [at, seq, id] = before;
    query = query.where((eb) =>
      eb.or([
        eb('a.at', '<', at),
        eb.and([eb('a.at', '=', at), eb('a.seq', '<', seq)]),
        eb.and([eb('a.at', '=', at), eb('a.seq', '=', seq), eb('a.id', '<', id)]),
      ]),
    );
  }
  return query
    .orderBy('a.at', 'desc')
    .orderBy('a.seq', 'desc')
    .orderBy('a.id', 'desc')
    .limit(page.limit)
    .execute();
}
