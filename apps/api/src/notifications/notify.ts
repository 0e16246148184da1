import type { Kysely } from 'kysely';
import type { NotificationType } from '@task-manager/shared';
import type { ActivityChange } from '../activity/changes.js';
import type { Database } from '../db/tables.js';
import { appendEvents, taskAssigneeIds } from '../events/log.js';
import { enqueueMail } from '../mail/outbox.js';
import { instantMail } from './mail.js';
import { notificationMailConfig } from './mail-config.js';
import { emailModesOf } from './preferences.js';
import { insertNotification } from './repository.js';
import { newRowId } from '../db/row-ids.js';

export interface NewNotification {
  userId: string;
  type: NotificationType;
  taskId: string | null;
  /** Who caused it (never told about it); null for reminders. */
  actorId: string | null;
  /** `taskTitle` always; what else the kind carries. */
  data: { taskTitle: string; dueDate?: string; [key: string]: unknown };
  /** Set for reminders: a second insert with the same key is skipped. */
  dedupeKey?: string;
}

/**
 * Writes notifications in the caller's transaction, each with its live event
 * (`notification.created`, to its recipient only) and, when e-mail is on and the person wants
 * this kind at once, its mail in the outbox. Nobody is told about their own action, and
 * deactivated people are told nothing. Answers how many were written.
 */
export async function createNotifications(
  trx: Kysely<Database>,
  notifications: readonly NewNotification[],
  at: string = new Date().toISOString(),
): Promise<number> {
  const wanted = notifications.filter((n) => n.userId !== n.actorId);
  if (wanted.length === 0) return 0;
  const userIds = [...new Set(wanted.map((n) => n.userId))];
  const actorIds = [...new Set(wanted.flatMap((n) => (n.actorId ? [n.actorId] : [])))];
  const people = await trx
    .selectFrom('users')
    .select(['id', 'email', 'name', 'role', 'active', 'language'])
    .where('id', 'in', [...new Set([...userIds, ...actorIds])])
    .execute();
  const byId = new Map(people.map((person) => [person.id, person]));
  const mail = notificationMailConfig();
  const modes = mail ? await emailModesOf(trx, userIds) : undefined;

  let written = 0;
  for (const notification of wanted) {
    const recipient = byId.get(notification.userId);
    if (!recipient || Number(recipient.active) !== 1) continue;
    const mode = modes?.get(recipient.id)?.[notification.type] ?? 'never';
    const id = newRowId();
    const inserted = await insertNotification(trx, {
      id,
      user_id: recipient.id,
      type: notification.type,
      task_id: notification.taskId,
      actor_id: notification.actorId,
      data: JSON.stringify(notification.data),
      created_at: at,
      read_at: null,
      // Null only while the daily digest still has to mail it.
      mailed_at: mode === 'digest' ? null : at,
      dedupe_key: notification.dedupeKey ?? null,
    });
    if (!inserted) continue;
    written += 1;
    await appendEvents(trx, [
      {
        type: 'notification.created',
        taskId: notification.taskId,
        userIds: [recipient.id],
        toAdmins: false,
        data: { notificationId: id },
      },
    ]);
    if (mail && mode === 'instant') {
      const actor = notification.actorId ? byId.get(notification.actorId) : undefined;
      await enqueueMail(
        trx,
        instantMail(mail, recipient, {
          type: notification.type,
          taskId: notification.taskId,
          taskTitle: notification.data.taskTitle,
          actorName: actor?.name ?? null,
          dueDate: notification.data.dueDate,
        }),
      );
    }
  }
  return written;
}

function mentionsOf(text: string | undefined): string[] {
  try {
    const value: unknown = JSON.parse(text ?? '[]');
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/** A task as a change left it, as its caller has it: what the notifications of the change use. */
export interface KnownTask {
  title: string;
  dueDate: string;
  /** Every assignee, deactivated ones too. */
  assigneeIds: readonly string[];
}

/**
 * The notifications of one recorded change to a task (called by recordActivity, in the change's
 * transaction): assigned and unassigned people; the assignees when the due date moved (not the
 * ones just assigned: being assigned says it); for a comment, the people it mentions
 * (`mentioned`) and the other assignees (`commented`). `known`: the task as the change left it,
 * when the caller has it (else read when needed).
 */
export async function notifyChanges(
  trx: Kysely<Database>,
  taskId: string,
  actorId: string | null,
  changes: readonly ActivityChange[],
  known?: KnownTask,
): Promise<void> {
  const relevant = changes.filter(
    (c) =>
      c.type === 'assignee.added' ||
      c.type === 'assignee.removed' ||
      c.type === 'comment.added' ||
      (c.type === 'task.updated' &&
        typeof c.data.changes === 'object' &&
        c.data.changes !== null &&
        'dueDate' in c.data.changes),
  );
  if (relevant.length === 0) return;
  const task = known
    ? { title: known.title, due_date: known.dueDate }
    : await trx
        .selectFrom('tasks')
        .select(['title', 'due_date'])
        .where('id', '=', taskId)
        .executeTakeFirst();
  if (!task) return;
  const taskTitle = task.title;
  const added = new Set(
    relevant.filter((c) => c.type === 'assignee.added').map((c) => String(c.data.userId)),
  );
  const out: NewNotification[] = [];
  let assignees = known?.assigneeIds;
  const currentAssignees = async () => (assignees ??= await taskAssigneeIds(trx, taskId));

  for (const change of relevant) {
    if (change.type === 'assignee.added' || change.type === 'assignee.removed') {
      out.push({
        userId: String(change.data.userId),
        type: change.type === 'assignee.added' ? 'assigned' : 'unassigned',
        taskId,
        actorId,
        data: { taskTitle },
      });
    } else if (change.type === 'task.updated') {
      for (const userId of await currentAssignees()) {
        if (added.has(userId)) continue;
        out.push({
          userId,
          type: 'due_changed',
          taskId,
          actorId,
          data: { taskTitle, dueDate: task.due_date },
        });
      }
    } else {
      const commentId = String(change.data.commentId);
      const comment = await trx
        .selectFrom('comments')
        .select('mentions')
        .where('id', '=', commentId)
        .executeTakeFirst();
      const mentioned = new Set(mentionsOf(comment?.mentions));
      for (const userId of mentioned) {
        out.push({ userId, type: 'mentioned', taskId, actorId, data: { taskTitle, commentId } });
      }
      for (const userId of await currentAssignees()) {
        if (mentioned.has(userId)) continue;
        out.push({ userId, type: 'commented', taskId, actorId, data: { taskTitle, commentId } });
      }
    }
  }
  await createNotifications(trx, out);
}
