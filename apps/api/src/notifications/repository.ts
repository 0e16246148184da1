import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, NotificationsTable } from '../db/tables.js';

export type NotificationRow = Selectable<NotificationsTable>;

/** A notification with its actor and, while the person may still see it, its task's title. */
export interface NotificationView extends NotificationRow {
  actor_name: string | null;
  actor_image: string | null;
  visible_task_title: string | null;
}

/** Where a page starts: the (created_at, id) of the last notification of the previous page. */
export type NotificationKey = readonly [createdAt: string, id: string];

/** Inserts a notification; false when its dedupe key was already used (a reminder sent before). */
export async function insertNotification(
  db: Kysely<Database>,
  row: Insertable<NotificationsTable>,
): Promise<boolean> {
  const result = await db
    .insertInto('notifications')
    .values(row)
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/**
 * A person's notifications, newest first, before `before`. The task shows only while the person
 * may see it (an admin, or still assigned): someone removed from a task learns its title from
 * `data`, never a way back to it.
 */
export async function listNotifications(
  db: Kysely<Database>,
  userId: string,
  page: { limit: number; before?: NotificationKey; unreadOnly: boolean },
): Promise<NotificationView[]> {
  let query = db
    .selectFrom('notifications as n')
    .innerJoin('users as me', 'me.id', 'n.user_id')
    .leftJoin('users as u', 'u.id', 'n.actor_id')
    .leftJoin('tasks as t', 't.id', 'n.task_id')
    .selectAll('n')
    .select((eb) => [
      'u.name as actor_name',
      'u.profile_image_url as actor_image',
      eb
        .case()
        .when(
          eb.or([
            eb('me.role', '=', 'admin'),
            eb.exists(
              eb
                .selectFrom('task_assignees as ta')
                .select('ta.task_id')
                .whereRef('ta.task_id', '=', 'n.task_id')
                .whereRef('ta.user_id', '=', 'n.user_id'),
            ),
          ]),
        )
        .then(eb.ref('t.title'))
        .else(null)
        .end()
        .as('visible_task_title'),
    ])
    .where('n.user_id', '=', userId);
  if (page.unreadOnly) query = query.where('n.read_at', 'is', null);
  const before = page.before;
  if (before) {
    const [createdAt, id] = before;
    query = query.where((eb) =>
      eb.or([
        eb('n.created_at', '<', createdAt),
        eb.and([eb('n.created_at', '=', createdAt), eb('n.id', '<', id)]),
      ]),
    );
  }
  return query
    .orderBy('n.created_at', 'desc')
    .orderBy('n.id', 'desc')
    .limit(page.limit)
    .execute() as Promise<NotificationView[]>;
}

export async function countUnread(db: Kysely<Database>, userId: string): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Marks some (ids) or all of a person's unread notifications read; others' ids match nothing. */
export async function markRead(
  db: Kysely<Database>,
  userId: string,
  ids: readonly string[] | 'all',
  at: string,
): Promise<void> {
  let query = db
    .updateTable('notifications')
    .set({ read_at: at })
    .where('user_id', '=', userId)
    .where('read_at', 'is', null);
  if (ids !== 'all') query = query.where('id', 'in', [...ids]);
  await query.execute();
}

/** A person's e-mail modes that differ from the defaults. */
export async function loadPreferenceRows(
  db: Kysely<Database>,
  userIds: readonly string[],
): Promise<Array<{ user_id: string; kind: string; mode: string }>> {
  if (userIds.length === 0) return [];
  return db
    .selectFrom('notification_preferences')
    .select(['user_id', 'kind', 'mode'])
    .where('user_id', 'in', [...userIds])
    .execute();
}

export async function savePreferences(
  db: Kysely<Database>,
  userId: string,
  modes: ReadonlyArray<readonly [kind: string, mode: string]>,
): Promise<void> {
  if (modes.length === 0) return;
  await db
    .insertInto('notification_preferences')
    .values(modes.map(([kind, mode]) => ({ user_id: userId, kind, mode })))
    .onConflict((oc) =>
      oc.columns(['user_id', 'kind']).doUpdateSet((eb) => ({ mode: eb.ref('excluded.mode') })),
    )
    .execute();
}
