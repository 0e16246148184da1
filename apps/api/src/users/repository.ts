import { sql, type Kysely, type Selectable } from 'kysely';
import type { OwnUser, Role, User, UserWithTaskCounts } from '@task-manager/shared';
import { supportsRowLocks } from '../db/database.js';
import type { Database, UsersTable } from '../db/tables.js';

export type UserRow = Selectable<UsersTable>;

/** The one place a user row becomes an API object: the password hash never leaves here. */
export function toApiUser(row: UserRow): User {
  return {
    _id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    profileImageUrl: row.profile_image_url,
    active: Number(row.active) === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The signed-in person's own account: a user, with what only they see. */
export function toOwnUser(row: UserRow): OwnUser {
  return { ...toApiUser(row), language: row.language };
}

export function findUserById(db: Kysely<Database>, id: string) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findUserByEmail(db: Kysely<Database>, email: string) {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export async function insertUser(db: Kysely<Database>, row: UserRow): Promise<void> {
  await db.insertInto('users').values(row).execute();
}

export async function updateUserRow(
  db: Kysely<Database>,
  id: string,
  patch: Partial<Omit<UserRow, 'id' | 'created_at'>>,
): Promise<void> {
  await db.updateTable('users').set(patch).where('id', '=', id).execute();
}

export async function deleteUserRow(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('users').where('id', '=', id).execute();
}

/**
 * Counts active admins inside a transaction, locking their rows on PostgreSQL so that two admins
 * removing each other at once cannot leave the team with none.
 */
export async function countAdminsForUpdate(trx: Kysely<Database>): Promise<number> {
  let query = trx
    .selectFrom('users')
    .select('id')
    .where('role', '=', 'admin')
    .where('active', '=', 1);
  if (supportsRowLocks(trx)) query = query.forUpdate();
  return (await query.execute()).length;
}

/** A user's place in the member list order: name, then id (the keyset of every user page). */
export type UserKey = readonly [name: string, id: string];

/** Which people a user page holds: name or e-mail containing `search`, one role, (in)active. */
export interface UserFilter {
  search?: string;
  role?: Role;
  active?: boolean;
}

/**
 * One page of people by name, those after `after` (keyset pagination on the (name, id) index),
 * optionally only those whose name or e-mail contains `search` (ignoring case), of one role,
 * active or not.
 */
export async function listMemberRows(
  db: Kysely<Database>,
  page: { limit: number; after?: UserKey } & UserFilter,
): Promise<UserRow[]> {
  let query = db.selectFrom('users').selectAll();
  const { after, search } = page;
  if (page.role) query = query.where('role', '=', page.role);
  if (page.active !== undefined) query = query.where('active', '=', page.active ? 1 : 0);
  if (search) {
    // lower() on both sides: PostgreSQL's LIKE is case-sensitive, SQLite's is not (for ASCII).
    const pattern = `%${search.replace(/[\\%_]/g, '\\$&')}%`;
    const contains = (column: 'name' | 'email') =>
      sql<boolean>`lower(${sql.ref(column)}) like lower(${pattern}) escape '\\'`;
    query = query.where((eb) => eb.or([contains('name'), contains('email')]));
  }
  if (after) {
    query = query.where((eb) => eb(eb.refTuple('name', 'id'), '>', eb.tuple(after[0], after[1])));
  }
  return query.orderBy('name').orderBy('id').limit(page.limit).execute();
}

/**
 * The task counts by status of the given users, in one grouped query (no query per user): it
 * reads only their assignments, through the (user_id, task_id) index.
 */
export async function countTasksOfUsers(
  db: Kysely<Database>,
  userIds: string[],
): Promise<Map<string, { pending: number; inProgress: number; completed: number }>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('task_assignees as ta')
    .innerJoin('tasks as t', 't.id', 'ta.task_id')
    .select([
      'ta.user_id',
      sql<number>`sum(case when t.status = 'Pending' then 1 else 0 end)`.as('pending'),
      sql<number>`sum(case when t.status = 'In Progress' then 1 else 0 end)`.as('in_progress'),
      sql<number>`sum(case when t.status = 'Completed' then 1 else 0 end)`.as('completed'),
    ])
    .where('ta.user_id', 'in', userIds)
    .groupBy('ta.user_id')
    .execute();
  return new Map(
    rows.map((row) => [
      row.user_id,
      {
        pending: Number(row.pending),
        inProgress: Number(row.in_progress),
        completed: Number(row.completed),
      },
    ]),
  );
}

/** A page of people with their task counts by status: two queries, whatever the page size. */
export async function listMembersWithTaskCounts(
  db: Kysely<Database>,
  page: { limit: number; after?: UserKey } & UserFilter,
): Promise<UserWithTaskCounts[]> {
  const rows = await listMemberRows(db, page);
  const counts = await countTasksOfUsers(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => {
    const count = counts.get(row.id);
    return {
      ...toApiUser(row),
      pendingTasks: count?.pending ?? 0,
      inProgressTasks: count?.inProgress ?? 0,
      completedTasks: count?.completed ?? 0,
    };
  });
}

/** Postgres reports 23505, SQLite "UNIQUE constraint failed". */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return (
    code === '23505' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    (typeof message === 'string' && message.includes('UNIQUE constraint failed'))
  );
}

/** Members read per query by the exports. */
const EXPORT_BATCH = 1000;

/** Every member by name with their task counts, a batch at a time (the user list's keyset). */
export async function* streamUserReportRows(
  db: Kysely<Database>,
): AsyncGenerator<UserWithTaskCounts> {
  let after: UserKey | undefined;
  for (;;) {
    const users = await listMembersWithTaskCounts(db, { limit: EXPORT_BATCH, after });
    yield* users;
    if (users.length < EXPORT_BATCH) return;
    const last = users[users.length - 1]!;
    after = [last.name, last._id];
  }
}

/** The ids among `ids` of users who are active (those a task may be given to). */
export async function activeUserIds(db: Kysely<Database>, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('id', 'in', ids)
    .where('active', '=', 1)
    .execute();
  return new Set(rows.map((row) => row.id));
}

/**
 * Gives the tasks of `fromId` to `toId` (every one on a deletion; with `openOnly`, those not
 * Completed, on a deactivation: finished work stays theirs), in the caller's transaction: where
 * `toId` is already assigned, only `fromId`'s row goes; elsewhere it is handed over in its place
 * (same position), so each task keeps its assignee order and no one is listed twice.
 */
export async function reassignTasks(
  trx: Kysely<Database>,
  fromId: string,
  toId: string,
  { openOnly = false }: { openOnly?: boolean } = {},
): Promise<number> {
  const open = trx.selectFrom('tasks').select('tasks.id').where('tasks.status', '!=', 'Completed');
  const both = trx
    .selectFrom('task_assignees as other')
    .select('other.task_id')
    .where('other.user_id', '=', toId);
  const dropped = await trx
    .deleteFrom('task_assignees')
    .where('user_id', '=', fromId)
    .where('task_id', 'in', both)
    .$if(openOnly, (query) => query.where('task_id', 'in', open))
    .executeTakeFirst();
  const result = await trx
    .updateTable('task_assignees')
    .set({ user_id: toId })
    .where('user_id', '=', fromId)
    .$if(openOnly, (query) => query.where('task_id', 'in', open))
    .executeTakeFirst();
  // Every task `fromId` left: handed over in their place, or already shared with `toId`.
  return Number(result.numUpdatedRows) + Number(dropped.numDeletedRows);
}

/** How many tasks a user is assigned (the number a delete confirmation names). */
export async function countTasksOf(db: Kysely<Database>, userId: string): Promise<number> {
  const row = await db
    .selectFrom('task_assignees')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
