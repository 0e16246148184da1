import type { Kysely } from 'kysely';
import { z } from 'zod';
import { validationMessages, type Activity, type ActivityType } from '@task-manager/shared';
import type { Database } from '../db/tables.js';
import { appendTaskEvents } from '../events/task-events.js';
import { BadRequest } from '../errors.js';
import { pathOfNul } from '../http/validate.js';
import { notifyChanges, type KnownTask } from '../notifications/notify.js';
import type { ActivityChange } from './changes.js';
import {
  insertActivityRows,
  listRecentActivity,
  listTaskActivity,
  type ActivityKey,
  type ActivityView,
} from './repository.js';
import { newRowId } from '../db/row-ids.js';

export type { ActivityChange, StatusReason } from './changes.js';
export type { KnownTask } from '../notifications/notify.js';
export { creationChanges, taskChanges } from './changes.js';

/**
 * Records changes to task `taskId` by `actorId`. Called with the transaction of the change
 * itself, so the history holds exactly what was committed: a rolled-back change leaves no entry,
 * and no change goes unrecorded. The entries of one change share their time, in the order given.
 * Its live events (src/events) are appended in the same transaction. `task`: the task after the
 * change, when the caller has it at hand (its answer), so that it is not read again.
 */
export async function recordActivity(
  trx: Kysely<Database>,
  taskId: string,
  actorId: string | null,
  changes: ActivityChange[],
  { at = new Date().toISOString(), task }: { at?: string; task?: KnownTask } = {},
): Promise<void> {
  await insertActivityRows(
    trx,
    changes.map((change, seq) => ({
      id: newRowId(),
      task_id: taskId,
      actor_id: actorId,
      type: change.type,
      data: JSON.stringify(change.data),
      at,
      seq,
    })),
  );
  await appendTaskEvents(trx, taskId, changes, task?.assigneeIds);
  await notifyChanges(trx, taskId, actorId, changes, task);
}

const cursorShape = z.tuple([z.string().min(1).max(64), z.int().min(0).max(1_000_000), z.uuid()]);

function encodeKey(row: ActivityView): string {
  return Buffer.from(JSON.stringify([row.at, Number(row.seq), row.id])).toString('base64url');
}

function decodeKey(cursor: string): ActivityKey {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    decoded = undefined;
  }
  const result = cursorShape.safeParse(decoded);
  if (!result.success || pathOfNul(result.data)) {
    const message = validationMessages.invalidCursor;
    throw BadRequest(message, [{ path: 'cursor', message }]);
  }
  return result.data;
}

function parseData(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function toApi(row: ActivityView, withTask: boolean): Activity {
  return {
    _id: row.id,
    type: row.type as ActivityType,
    actor:
      row.actor_id && row.actor_name !== null
        ? { _id: row.actor_id, name: row.actor_name, profileImageUrl: row.actor_image }
        : null,
    at: row.at,
    data: parseData(row.data),
    taskId: row.task_id,
    ...(withTask && { task: { _id: row.task_id, title: row.task_title } }),
  };
}

export interface ActivityPage {
  items: Activity[];
  nextCursor: string | null;
}

export class ActivityService {
  constructor(private readonly db: Kysely<Database>) {}

  /** A task's history, oldest first (the caller checked that the task is visible). */
  async listForTask(
    taskId: string,
    query: { limit: number; cursor?: string },
  ): Promise<ActivityPage> {
    const after = query.cursor ? decodeKey(query.cursor) : undefined;
    const rows = await listTaskActivity(this.db, taskId, { limit: query.limit + 1, after });
    return this.page(rows, query.limit, false);
  }

  /** The team's recent activity across tasks, newest first (admins). */
  async listRecent(query: { limit: number; cursor?: string }): Promise<ActivityPage> {
    const before = query.cursor ? decodeKey(query.cursor) : undefined;
    const rows = await listRecentActivity(this.db, { limit: query.limit + 1, before });
    return this.page(rows, query.limit, true);
  }

  private page(rows: ActivityView[], limit: number, withTask: boolean): ActivityPage {
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      items: page.map((row) => toApi(row, withTask)),
      nextCursor: rows.length > limit && last ? encodeKey(last) : null,
    };
  }
}
