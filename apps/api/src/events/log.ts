import { sql, type Kysely } from 'kysely';
import type { LiveEventType } from '@task-manager/shared';
import { compiledOnce } from '../db/compiled-once.js';
import { isPostgres } from '../db/database.js';
import type { Database } from '../db/tables.js';

/** The PostgreSQL channel a committed event is announced on (payload: nothing; read the log). */
export const EVENTS_CHANNEL = 'task_manager_events';
/** Any constant: the advisory lock that makes event ids grow in commit order on PostgreSQL. */
const EVENTS_LOCK = 17_001;

export interface NewEvent {
  type: LiveEventType;
  taskId: string | null;
  /** The user ids allowed to receive it. */
  userIds: readonly string[];
  /** Whether every admin may receive it too (task events: yes; a notification: no). */
  toAdmins: boolean;
  data?: Record<string, unknown>;
}

/**
 * Appends events to the live-update log, in the caller's transaction: they exist (and streams
 * see them) exactly when the change commits. On PostgreSQL the writers of events take one
 * transaction-scoped advisory lock first, so ids are handed out in commit order and a reader that
 * has seen id N has seen everything before it; the NOTIFY is delivered at commit to every process.
 */
export async function appendEvents(
  trx: Kysely<Database>,
  events: readonly NewEvent[],
): Promise<void> {
  if (events.length === 0) return;
  const at = new Date().toISOString();
  if (isPostgres(trx)) await sql`select pg_advisory_xact_lock(${EVENTS_LOCK})`.execute(trx);
  await trx
    .insertInto('events')
    .values(
      events.map((event) => ({
        type: event.type,
        task_id: event.taskId,
        audience: JSON.stringify([...new Set(event.userIds)]),
        to_admins: event.toAdmins ? 1 : 0,
        data: JSON.stringify(event.data ?? {}),
        at,
      })),
    )
    .execute();
  if (isPostgres(trx)) await sql`select pg_notify(${EVENTS_CHANNEL}, '')`.execute(trx);
}

/** The people assigned to a task now (in the caller's transaction). */
export async function taskAssigneeIds(trx: Kysely<Database>, taskId: string): Promise<string[]> {
  const rows = await assigneeRows(trx, taskId);
  return rows.map((row) => row.user_id);
}

// Read by every change to a task, for its live events: compiled once.
const assigneeRows = compiledOnce((trx: Kysely<Database>, taskId: string) =>
  trx.selectFrom('task_assignees').select('user_id').where('task_id', '=', taskId),
);
