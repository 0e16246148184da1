import { sql, type Kysely, type Selectable } from 'kysely';
import type { User, UserWithTaskCounts } from '@task-manager/shared';
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
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
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
 * Counts admins inside a transaction, locking their rows on PostgreSQL so that two admins
 * removing each other at once cannot leave the team with none.
 */
export async function countAdminsForUpdate(trx: Kysely<Database>): Promise<number> {
  let query = trx.selectFrom('users').select('id').where('role', '=', 'admin');
  if (supportsRowLocks(trx)) query = query.forUpdate();
  return (await query.execute()).length;
}

export async function existingUserIds(db: Kysely<Database>, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('users').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((row) => row.id));
}

/** Members with their task counts by status, in one query (no query per user). */
export async function listMembersWithTaskCounts(
  db: Kysely<Database>,
): Promise<UserWithTaskCounts[]> {
  const counts = db
    .selectFrom('task_assignees as ta')
    .innerJoin('tasks as t', 't.id', 'ta.task_id')
    .select([
      'ta.user_id',
      sql<number>`sum(case when t.status = 'Pending' then 1 else 0 end)`.as('pending'),
      sql<number>`sum(case when t.status = 'In Progress' then 1 else 0 end)`.as('in_progress'),
      sql<number>`sum(case when t.status = 'Completed' then 1 else 0 end)`.as('completed'),
    ])
    .groupBy('ta.user_id')
    .as('c');
  const rows = await db
    .selectFrom('users as u')
    .leftJoin(counts, 'c.user_id', 'u.id')
    .selectAll('u')
    .select(['c.pending', 'c.in_progress', 'c.completed'])
    .where('u.role', '=', 'member')
    .orderBy('u.name')
    .orderBy('u.id')
    .execute();
  return rows.map((row) => ({
    ...toApiUser(row),
    pendingTasks: Number(row.pending ?? 0),
    inProgressTasks: Number(row.in_progress ?? 0),
    completedTasks: Number(row.completed ?? 0),
  }));
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
