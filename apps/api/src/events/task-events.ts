import type { Kysely } from 'kysely';
import type { LiveEventType } from '@task-manager/shared';
import type { ActivityChange } from '../activity/changes.js';
import type { Database } from '../db/tables.js';
import { appendEvents, taskAssigneeIds } from './log.js';

/** Which live event a recorded change is announced as. */
function liveTypeOf(change: ActivityChange): LiveEventType {
  if (change.type === 'task.created') return 'task.created';
  if (change.type === 'comment.added') return 'comment.added';
  if (change.type.startsWith('checklist.')) return 'checklist.changed';
  return 'task.updated';
}

/**
 * The live events of one change to a task: one per kind (a change that ticks the last item and so
 * completes the task is a `checklist.changed` and a `task.updated`). They go to every admin, the
 * people assigned now (`assigneeIds` when the caller has them, else read) and the people this
 * change removed (so their lists drop the task).
 */
export async function appendTaskEvents(
  trx: Kysely<Database>,
  taskId: string,
  changes: readonly ActivityChange[],
  assigneeIds?: readonly string[],
): Promise<void> {
  if (changes.length === 0) return;
  const removed = changes
    .filter((change) => change.type === 'assignee.removed')
    .map((change) => String(change.data.userId));
  const userIds = [...(assigneeIds ?? (await taskAssigneeIds(trx, taskId))), ...removed];
  const byType = new Map<LiveEventType, Record<string, unknown>>();
  for (const change of changes) {
    const type = liveTypeOf(change);
    if (byType.has(type)) continue;
    byType.set(type, type === 'comment.added' ? { commentId: change.data.commentId } : {});
  }
  await appendEvents(
    trx,
    [...byType].map(([type, data]) => ({ type, taskId, userIds, toAdmins: true, data })),
  );
}

/** A deleted task's event, to the people who were assigned (read before the delete) and admins. */
export async function appendTaskDeleted(
  trx: Kysely<Database>,
  taskId: string,
  assigneeIds: readonly string[],
): Promise<void> {
  await appendEvents(trx, [{ type: 'task.deleted', taskId, userIds: assigneeIds, toAdmins: true }]);
}
