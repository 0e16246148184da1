import { randomFillSync } from 'node:crypto';
import { v7 } from 'uuid';

/**
 * The id of a new task, checklist item, link, comment, history entry or notification: a UUID of
 * version 7, whose first 48 bits are the time of its making and the rest random (RFC 9562).
 * Each of those tables has its id in an index (its key), and most writes add several rows to
 * them: with random ids (version 4) every new row's key went to a page of its own somewhere in
 * the index, which SQLite's page cache seldom held, so it was read from the file first; in time
 * order they go together at the index's end, which stays in the cache. On the 100,000-task file a
 * task's creation read 83 pages from the files (`pread`), 62 now; it writes as many (78 before, 81
 * now: an index grown at its end splits as often). Ids are no secret (every read checks who may see
 * what), so the time they carry is no leak beyond the `createdAt` each of them shows anyway; the
 * secrets (calendar feeds, invites, tokens) keep their random ids.
 */
export function newRowId(): string {
  const random = randomBytes16();
  const msecs = Date.now();
  // As v7() counts: ids of one millisecond count up from a random start, so they sort in the
  // order they were made; past the counter's top, the next millisecond is borrowed.
  if (msecs > last.msecs) {
    last.msecs = msecs;
    last.seq = random.readUInt32BE(6) & 0x7fffffff;
  } else if (++last.seq > 0xffffffff) {
    last.msecs += 1;
    last.seq = 0;
  }
  return v7({ random, msecs: last.msecs, seq: last.seq });
}

const last = { msecs: -Infinity, seq: 0 };

/**
 * v7() draws its 16 random bytes from the system one id at a time (crypto.getRandomValues): 7 µs
 * an id on our machine, 50 under load, and a task's creation makes six or more ids. They are
 * drawn 4 KB at a time here, as crypto.randomUUID() does for its own ids.
 */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let used = 0;
function randomBytes16(): Buffer {
  if (used + 16 > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafe(POOL_BYTES));
    used = 0;
  }
  used += 16;
  return pool.subarray(used - 16, used);
}
