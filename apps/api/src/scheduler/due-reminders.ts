import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../db/database.js';
import type { Database } from '../db/tables.js';
import { createNotifications, type NewNotification } from '../notifications/notify.js';
import { readJobMark, writeJobMark } from './job-marks.js';

const DAY_MS = 86_400_000;
/** Notifications written per transaction: a long backlog does not hold the write lock long. */
const BATCH = 200;

/** Midnight UTC of the day of `at`. */
const startOfUtcDay = (at: Date) =>
  new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));

/** Its mark: the `now` of the last complete run; the next one reads only what changed since. */
export const DUE_REMINDERS_JOB = 'due-reminders';
/** A write committed a little after its updated_at still falls in the next run's window. */
const CHECKED_MARGIN_MS = 5 * 60_000;

/**
 * Due reminders, run every minute by the scheduler (callable directly): `due_soon` to the
 * assignees of every open task due tomorrow, and `overdue` for every open task due before `now`.
 * Days are UTC days, like the app's own due days (task_due_days). Each is written once per task,
 * person and due date (a unique key): running again, after a restart or in a second process at
 * the same moment, writes nothing twice; moving the due date makes a new reminder due.
 * Answers how many notifications were written.
 *
 * What a run reads is bounded by what changed, not by every overdue task there is: tomorrow's
 * tasks (a range of the due-date index) once a day, then only those written since the last
 * complete run, and for `overdue` only the tasks that came due since the last complete run, or
 * were written since (a new or moved due date, a reopened task, new assignees: every such write
 * moves the task's updated_at), each a range of an index. The first
 * run (or one whose clock is behind the last) reads every overdue task, once. Before, every run
 * read every open overdue task and its assignees, every minute: about 45,000 rows and 90
 * look-ups in the notifications at 100,000 tasks, ten times that at 1,000,000.
 */
export async function runDueReminders(db: Kysely<Database>, now: Date = new Date()) {
  const tomorrow = new Date(startOfUtcDay(now).getTime() + DAY_MS);
  const dayAfter = new Date(tomorrow.getTime() + DAY_MS);
  const checked = await readJobMark(db, DUE_REMINDERS_JOB);
  const since =
    checked !== undefined && checked <= now
      ? new Date(checked.getTime() - CHECKED_MARGIN_MS).toISOString()
      : undefined;
  // The last complete run was today: it read every task due tomorrow (the first run of a day
  // reads them all), so only those written since can be new.
  const sameDay =
    since !== undefined && startOfUtcDay(checked!).getTime() === startOfUtcDay(now).getTime();
  const openTasks = () =>
    db
      .selectFrom('tasks as t')
      .innerJoin('task_assignees as ta', 'ta.task_id', 't.id')
      .select(['t.id', 't.title', 't.due_date', 'ta.user_id'])
      .where('t.status', '!=', 'Completed');
  // Read by updated_at, the due date checked on each task read. SQLite keeps no statistics:
  // given both ranges it took the due date's, every overdue task (40,000 of 100,000, 366 ms
  // each minute, the server blocked meanwhile); the unary plus keeps that index out of its plan.
  // PostgreSQL picks the narrower range from its own statistics.
  const dueDate = isPostgres(db) ? sql.ref<string>('t.due_date') : sql<string>`+t.due_date`;
  const writtenSince = (since: string) => openTasks().where('t.updated_at', '>=', since);
  const reads = [
    sameDay
      ? writtenSince(since!)
          .where(dueDate, '>=', tomorrow.toISOString())
          .where(dueDate, '<', dayAfter.toISOString())
          .execute()
      : openTasks()
          .where('t.due_date', '>=', tomorrow.toISOString())
          .where('t.due_date', '<', dayAfter.toISOString())
          .execute(),
    ...(since === undefined
      ? [openTasks().where('t.due_date', '<', now.toISOString()).execute()]
      : [
          openTasks()
            .where('t.due_date', '<', now.toISOString())
            .where('t.due_date', '>=', since)
            .execute(),
          writtenSince(since).where(dueDate, '<', now.toISOString()).execute(),
        ]),
  ];
  // A task both came due and was written since: read twice, reminded once (by its key below).
  const rows = (await Promise.all(reads)).flat();
  const byKey = new Map<string, (typeof rows)[number]>();
  for (const row of rows) byKey.set(`${row.id} ${row.user_id}`, row);
  const written = await remind(db, [...byKey.values()], now);
  await writeJobMark(db, DUE_REMINDERS_JOB, now);
  return written;
}

/** Writes the reminders of `rows` (open tasks and an assignee each) not written before. */
async function remind(
  db: Kysely<Database>,
  rows: Array<{ id: string; title: string; due_date: string; user_id: string }>,
  now: Date,
) {
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
