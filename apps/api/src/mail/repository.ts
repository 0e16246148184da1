import { sql, type Kysely, type Selectable } from 'kysely';
import { supportsRowLocks } from '../db/database.js';
import type { Database, MailOutboxTable } from '../db/tables.js';

export type MailRow = Selectable<MailOutboxTable>;

export async function insertMail(
  db: Kysely<Database>,
  row: Omit<MailRow, 'attempts' | 'locked_until' | 'sent_at' | 'last_error'>,
): Promise<void> {
  await db.insertInto('mail_outbox').values(row).execute();
}

/**
 * Takes up to `limit` mails that are due and held by no sender, and holds them until
 * `lockedUntil`: one transaction, so two processes never take the same mail. On PostgreSQL the
 * rows are locked with SKIP LOCKED (a second sender takes the next ones instead of waiting); on
 * SQLite the transaction holds the one write lock (BEGIN IMMEDIATE), so senders take turns.
 */
export async function claimDueMail(
  db: Kysely<Database>,
  options: { now: string; lockedUntil: string; limit: number; maxAttempts: number },
): Promise<MailRow[]> {
  return db.transaction().execute(async (trx) => {
    let query = trx
      .selectFrom('mail_outbox')
      .selectAll()
      .where('sent_at', 'is', null)
      .where('attempts', '<', options.maxAttempts)
      .where('next_attempt_at', '<=', options.now)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', options.now)]))
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(options.limit);
    if (supportsRowLocks(trx)) query = query.forUpdate().skipLocked();
    const rows = await query.execute();
    if (rows.length === 0) return [];
    await trx
      .updateTable('mail_outbox')
      .set({ locked_until: options.lockedUntil })
      .where(
        'id',
        'in',
        rows.map((row) => row.id),
      )
      .execute();
    return rows;
  });
}

export async function markMailSent(db: Kysely<Database>, id: string, at: string): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({ sent_at: at, locked_until: null, attempts: sql`attempts + 1`, last_error: null })
    .where('id', '=', id)
    .execute();
}

export async function markMailFailed(
  db: Kysely<Database>,
  id: string,
  failure: { error: string; nextAttemptAt: string },
): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({
      locked_until: null,
      attempts: sql`attempts + 1`,
      last_error: failure.error.slice(0, 1000),
      next_attempt_at: failure.nextAttemptAt,
    })
    .where('id', '=', id)
    .execute();
}
