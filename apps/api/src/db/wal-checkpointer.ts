import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { sql, type Kysely } from 'kysely';
import type { Database } from './tables.js';

/**
 * SQLite in WAL mode writes each commit to the log file; a checkpoint copies the log back into
 * the database file. By default the committing connection checkpoints every 1,000 pages: the
 * request that happens to commit then copies 4 MB before it answers, and every page written
 * often (the counts, an index's newest leaf, the full-text index's latest segment) is copied
 * once per 1,000 pages of log. A serving process checkpoints in a thread of its own instead, on
 * a second connection, every `everyMs`: PASSIVE, so it never waits for (or holds up) a reader
 * or a writer, and what it cannot copy yet it copies next time. The request thread keeps a
 * backstop, a checkpoint of its own every BACKSTOP_PAGES (160 MB of log), should the thread fall
 * behind or stop. Several processes on one file each run one: SQLite lets one checkpoint run
 * at a time, and the others find nothing left to do.
 *
 * The backstop sits above what a second of sustained writing logs. A checklist tick logs about
 * 33 pages, so one process ticking flat out logs some 40,000 a second: a backstop of 10,000
 * pages was reached three times a second, and each time the request that committed copied the
 * log and synced the file (about 45 ms, every request in flight waiting behind it; p99 of ticks
 * at 8 connections 55 ms). Above it, the thread's checkpoint empties the log first, the request
 * thread copies nothing, and that p99 is 14-16 ms (docs/performance.md).
 */
export const BACKSTOP_PAGES = 40_000;

export interface WalCheckpointer {
  /** Checkpoints run so far, and how many log pages the last one copied. */
  readonly runs: number;
  readonly lastCheckpointed: number;
  stop(): Promise<void>;
}

/** The thread's code: CommonJS, given the driver's resolved path (no module resolution there). */
const THREAD = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 0');
const run = () => {
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ checkpointed: result.checkpointed });
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message) });
  }
};
const timer = setInterval(run, workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export async function startWalCheckpointer(
  db: Kysely<Database>,
  file: string,
  { everyMs = 1000, onError }: { everyMs?: number; onError?: (message: string) => void } = {},
): Promise<WalCheckpointer> {
  await sql.raw(`pragma wal_autocheckpoint = ${BACKSTOP_PAGES}`).execute(db);
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(THREAD, { eval: true, workerData: { driver, file, everyMs } });
  // It must not keep the process alive: the server stops it on shutdown, a test may not.
  worker.unref();
  const state = { runs: 0, lastCheckpointed: 0 };
  worker.on('message', (message: { checkpointed?: number; error?: string }) => {
    if (message.error !== undefined) {
      onError?.(message.error);
      return;
    }
    state.runs += 1;
    state.lastCheckpointed = message.checkpointed ?? 0;
  });
  worker.on('error', (error) => onError?.(error.message));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    get runs() {
      return state.runs;
    },
    get lastCheckpointed() {
      return state.lastCheckpointed;
    },
    async stop() {
      // Held while it closes its connection: the process must not end before it has.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
