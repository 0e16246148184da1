import type { Kysely } from 'kysely';
import type { NotificationType } from '@task-manager/shared';
import type { Database } from '../db/tables.js';
import { enqueueMail } from '../mail/outbox.js';
import { digestMail, type MailItem } from '../notifications/mail.js';
import { notificationMailConfig } from '../notifications/mail-config.js';
import { emailModesOf } from '../notifications/preferences.js';

function dataOf(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * The daily digest: for each person, one mail with every notification still waiting for it
 * (mailed_at null), for the kinds they still want in the digest. Per person, one transaction
 * marks them mailed (an UPDATE ... RETURNING, so two runs never take the same ones) and queues
 * the mail: a crash before the commit leaves them for the next run, never sends them twice.
 * Answers how many digests were queued.
 */
export async function runDigest(db: Kysely<Database>, now: Date = new Date()): Promise<number> {
  const config = notificationMailConfig();
  if (!config) return 0;
  const waiting = await db
    .selectFrom('notifications')
    .select('user_id')
    .distinct()
    .where('mailed_at', 'is', null)
    .execute();
  let queued = 0;
  for (const { user_id: userId } of waiting) {
    const sent = await db.transaction().execute(async (trx) => {
      const rows = await trx
        .updateTable('notifications')
        .set({ mailed_at: now.toISOString() })
        .where('user_id', '=', userId)
        .where('mailed_at', 'is', null)
        .returning(['id', 'type', 'task_id', 'actor_id', 'data', 'created_at'])
        .execute();
      const recipient = await trx
        .selectFrom('users')
        .select(['id', 'email', 'name', 'role', 'active', 'language'])
        .where('id', '=', userId)
        .executeTakeFirst();
      if (!recipient || Number(recipient.active) !== 1) return false;
      const modes = (await emailModesOf(trx, [userId])).get(userId)!;
      const wanted = rows
        .filter((row) => modes[row.type as NotificationType] === 'digest')
        .sort((a, b) => a.created_at.localeCompare(b.created_at));
      if (wanted.length === 0) return false;
      const actorIds = [...new Set(wanted.flatMap((row) => (row.actor_id ? [row.actor_id] : [])))];
      const actors = actorIds.length
        ? await trx.selectFrom('users').select(['id', 'name']).where('id', 'in', actorIds).execute()
        : [];
      const names = new Map(actors.map((actor) => [actor.id, actor.name]));
      const items: MailItem[] = wanted.map((row) => {
        const data = dataOf(row.data);
        return {
          type: row.type as NotificationType,
          taskId: row.task_id,
          taskTitle: typeof data.taskTitle === 'string' ? data.taskTitle : '',
          actorName: row.actor_id ? (names.get(row.actor_id) ?? null) : null,
          dueDate: typeof data.dueDate === 'string' ? data.dueDate : undefined,
        };
      });
      await enqueueMail(trx, digestMail(config, recipient, items));
      return true;
    });
    if (sent) queued += 1;
  }
  return queued;
}
