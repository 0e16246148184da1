import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../db/tables.js';
import { runDigest } from './digest.js';
import { runDueReminders } from './due-reminders.js';
import { takeLease } from './lease.js';
import { runSearchUpkeep } from './search-upkeep.js';

/** The hour (UTC) the daily digest goes out. */
export const DIGEST_HOUR_UTC = 7;
const TICK_MS = 60_000;
/** Shorter than a tick: the next tick's holder (any process) can take it again. */
const REMINDER_LEASE_MS = 50_000;

/** The next digest time after `now`: today's at DIGEST_HOUR_UTC, or tomorrow's. */
function nextDigestAt(now: Date): Date {
  const today = new Date(
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), DIGEST_HOUR_UTC),
  );
  return today > now ? today : new Date(today.getTime() + 86_400_000);
}

export interface JobRun {
  /** Notifications written by the due reminders; null: another process held the lease. */
  dueReminders: number | null;
  /** Digests queued; null: not due, or another process ran it. */
  digests: number | null;
}

/**
 * One tick of the scheduler: each job runs only in the process that takes its lease. The due
 * reminders' lease lasts less than a tick; the digest's lasts until the next digest time, so it
 * runs once a day (at DIGEST_HOUR_UTC, or at the first tick after it).
 */
export async function runScheduledJobs(
  db: Kysely<Database>,
  holder: string,
  now: Date = new Date(),
): Promise<JobRun> {
  const run: JobRun = { dueReminders: null, digests: null };
  const reminderUntil = new Date(now.getTime() + REMINDER_LEASE_MS);
  if (await takeLease(db, 'due-reminders', holder, now, reminderUntil)) {
    run.dueReminders = await runDueReminders(db, now);
  }
  if (now.getUTCHours() >= DIGEST_HOUR_UTC) {
    if (await takeLease(db, 'daily-digest', holder, now, nextDigestAt(now))) {
      run.digests = await runDigest(db, now);
    }
  }
  return run;
}

/**
 * Starts the scheduler of this process (server.ts, once per process): a tick now and every
 * minute, then the full-text index's upkeep (search-upkeep.ts, at most hourly). Every serving
 * process runs one; the leases let exactly one of them run each job.
 * Answers a function that stops it.
 */
export function startScheduler(db: Kysely<Database>, logger: Logger): () => void {
  const holder = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      const run = await runScheduledJobs(db, holder);
      if (run.dueReminders || run.digests) logger.info({ event: 'scheduler.ran', ...run });
      const upkeep = await runSearchUpkeep(db, holder);
      if (upkeep?.steps) logger.info({ event: 'scheduler.search-upkeep', ...upkeep });
    } catch (error) {
      logger.warn({ event: 'scheduler.failed', err: error }, 'scheduled jobs failed');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), TICK_MS);
  timer.unref();
  void tick();
  return () => clearInterval(timer);
}
