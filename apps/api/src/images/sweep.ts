import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../db/tables.js';
import { IMAGE_SWEEP_INTERVAL_MS, sweepUnclaimedImages } from './service.js';

/**
 * Sweeps the unclaimed uploads now and then every `intervalMs`, on a timer that does not keep
 * the process alive. Every server process runs its own: the sweep is safe to run at once (see
 * deleteUnclaimedImages), and a process never starts a run while its previous one is going.
 * Answers a function that stops the timer.
 */
export function startImageSweep(
  db: Kysely<Database>,
  logger: Logger,
  intervalMs: number = IMAGE_SWEEP_INTERVAL_MS,
): () => void {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      const deleted = await sweepUnclaimedImages(db);
      if (deleted > 0) logger.info({ deleted }, 'deleted uploads no user claimed in time');
    } catch (error) {
      // The database may be away for a moment: the next run tries again.
      logger.warn({ err: error }, 'sweeping unclaimed uploads failed');
    } finally {
      running = false;
    }
  };
  void run();
  const timer = setInterval(() => void run(), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
