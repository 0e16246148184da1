import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { exitAfterLogs } from './exit-after-logs.js';

/** A worker that dies before it listens, or this soon after it was started, failed to start. */
const QUICK_DEATH_MS = 10_000;
/** Quick deaths in a row after which the primary gives up: every worker fails the same way. */
const MAX_QUICK_DEATHS = 5;
/** First wait before replacing a worker that died quickly; doubles with each quick death. */
const FIRST_BACKOFF_MS = 250;
/** Longer than a worker's own shutdown limit (grace + closing the database). */
const STOP_TIMEOUT_MS = 20_000;

/** What the primary sends a worker to make it stop as a single process stops on SIGTERM. */
export interface ShutdownMessage {
  shutdown: string;
}

export function isShutdownMessage(message: unknown): message is ShutdownMessage {
  return typeof message === 'object' && message !== null && 'shutdown' in message;
}

/**
 * What a worker sends its primary after a request that may have written, and the primary passes
 * on to every other worker: on SQLite nothing else tells them that the events log grew.
 */
export const LIVE_EVENTS_WAKE = { liveEventsWake: true } as const;

export function isLiveEventsWake(message: unknown): boolean {
  return typeof message === 'object' && message !== null && 'liveEventsWake' in message;
}

/**
 * The primary of WEB_CONCURRENCY > 1: it serves nothing itself (it has already migrated the
 * database and resolved the secrets), forks the workers, which share one listening socket, keeps
 * their number up, and relays stop signals to them.
 */
export function runPrimary({ workers, logger }: { workers: number; logger: Logger }): void {
  const startedAt = new Map<number, number>(); // worker id → start time, for workers alive
  const listening = new Set<number>();
  let announced = false;
  let quickDeaths = 0;
  let stopping = false;
  let exitCode = 0;

  const fork = () => startedAt.set(cluster.fork().id, Date.now());
  const tellWorkers = (signal: string) => {
    for (const worker of Object.values(cluster.workers ?? {}) as Worker[]) {
      // A worker that just died has no channel left; sending would raise an error event.
      if (worker.isConnected()) worker.send({ shutdown: signal } satisfies ShutdownMessage);
    }
  };

  // Every worker gets the same port (with PORT=0 too: the primary holds the socket), so the
  // start line is printed once, when all of them take requests.
  cluster.on('listening', (worker, address) => {
    listening.add(worker.id);
    if (announced || stopping || listening.size < workers) return;
    announced = true;
    logger.info({ workers }, `Task Manager listening on http://localhost:${address.port}`);
  });

  // Live updates: one worker's write wakes the event streams of all the others.
  cluster.on('message', (from, message) => {
    if (!isLiveEventsWake(message)) return;
    for (const worker of Object.values(cluster.workers ?? {}) as Worker[]) {
      if (worker !== from && worker.isConnected()) worker.send(LIVE_EVENTS_WAKE);
    }
  });

  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker.id) ?? 0);
    // Died before it ever took requests: a failed start, however long the start took (a loaded
    // machine can take longer than QUICK_DEATH_MS to load the code).
    const neverListened = !listening.has(worker.id);
    startedAt.delete(worker.id);
    listening.delete(worker.id);
    if (stopping) {
      if (code !== 0) exitCode = 1;
      if (startedAt.size === 0) {
        logger.info('stopped');
        exitAfterLogs(logger, exitCode);
      }
      return;
    }
    quickDeaths = neverListened || lived < QUICK_DEATH_MS ? quickDeaths + 1 : 0;
    if (quickDeaths >= MAX_QUICK_DEATHS) {
      logger.error(
        { code, signal },
        `${quickDeaths} workers in a row died right after start; giving up`,
      );
      stop('worker failures', 1);
      return;
    }
    const delay = quickDeaths === 0 ? 0 : FIRST_BACKOFF_MS * 2 ** (quickDeaths - 1);
    logger.error(
      { pid: worker.process.pid, code, signal, restartInMs: delay },
      'worker died unexpectedly; starting a replacement',
    );
    setTimeout(() => {
      if (!stopping) fork();
    }, delay);
  });

  function stop(reason: string, code = 0) {
    if (stopping) {
      // A second signal: the workers then close their open connections at once.
      tellWorkers(reason);
      return;
    }
    stopping = true;
    exitCode = code;
    logger.info(
      { signal: reason, workers: startedAt.size },
      'shutting down: stopping every worker',
    );
    if (startedAt.size === 0) {
      exitAfterLogs(logger, exitCode);
      return;
    }
    tellWorkers(reason);
    // Last resort for a worker stuck so hard that its own shutdown timer cannot fire.
    setTimeout(() => {
      logger.error('workers did not stop in time; killing them');
      for (const worker of Object.values(cluster.workers ?? {}) as Worker[]) {
        worker.process.kill('SIGKILL');
      }
      exitAfterLogs(logger, 1);
    }, STOP_TIMEOUT_MS).unref();
  }

  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  for (let i = 0; i < workers; i++) fork();
}
