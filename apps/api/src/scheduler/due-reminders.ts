import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.js';
import { createNotifications, type NewNotification } from '../notifications/notify.js';

const DAY_MS = 86_400_000;
/** Notifications written per transaction: a long backlog does not hold the write lock long. */
const BATCH = 200;

/** Midnight UTC of the day of `at`. */
const startOfUtcDay = (at: Date) =>
  new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));

/**
 * Due reminders, run every minute by the scheduler (callable directly): `due_soon` to the
 * assignees of every open task due tomorrow, and `overdue` for every open task due before `now`.
 * Days are UTC days, like the app's own due days (task_due_days). Each is written once per task,
 * person and due date (a unique key): running again, after a restart or in a second process at
 * the same moment, writes nothing twice; moving the due date makes a new reminder due.
 * Answers how many notifications were written.
 */
export async function runDueReminders(db: Kysely<Database>, now: Date = new Date()) {
  const tomorrow = new Date(startOfUtcDay(now).getTime() + DAY_MS);
  const dayAfter = new Date(tomorrow.getTime() + DAY_MS);
  const rows = await db
    .selectFrom('tasks as t')
    .innerJoin('task_assignees as ta', 'ta.task_id', 't.id')
    .select(['t.id', 't.title', 't.due_date', 'ta.user_id'])
    .where('t.status', '!=', 'Completed')
    .where((eb) =>
      eb.or([
        eb.and([
          eb('t.due_date', '>=', tomorrow.toISOString()),
          eb('t.due_date', '<', dayAfter.toISOString()),
        ]),
        eb('t.due_date', '<', now.toISOString()),
      ]),
    )
    .orderBy('t.id')
    .orderBy('ta.user_id')
    .execute();
  const reminders: NewNotification[] = rows.map((row) => {
    const type = row.due_date < now.toISOString() ? 'overdue' : 'due_soon';
    return {
      userId: row.user_id,
      type,
      taskId: row.id,
      actorId: null,
      data: { taskTitle: row.title, dueDate: row.due_date },
      dedupeKey: `${type}:${row.id}:${row.user_id}:${row.due_date}`,
    };
  });
  if (reminders.length === 0) return 0;
  // Only the ones not written before: most runs find every key taken.
  const keys = reminders.map((r) => r.dedupeKey!);
  const taken = new Set<string>();
  for (let i = 0; i < keys.length; i += 500) {
    const found = await db
      .selectFrom('notifications')
      .select('dedupe_key')
      .where('dedupe_key', 'in', keys.slice(i, i + 500))
      .execute();
    for (const row of found) if (row.dedupe_key) taken.add(row.dedupe_key);
  }
  const fresh = reminders.filter((r) => !taken.has(r.dedupeKey!));
  let written = 0;
  for (let i = 0; i < fresh.length; i += BATCH) {
    const batch = fresh.slice(i, i + BATCH);
    written += await db.transaction().execute((trx) => createNotifications(trx, batch));
  }
  return written;
}
