import { createHash } from 'node:crypto';
// Native bcrypt hashes on libuv's thread pool: the event loop stays free while a sign-in is
// checked, and several sign-ins use both cores. Its npm package ships prebuilt binaries, so no
// compiler runs at install (its install script stays off: pnpm.ignoredBuiltDependencies).
import bcrypt from 'bcrypt';
import pLimit from 'p-limit';
import { apiMessages } from '@task-manager/shared';
import { Busy } from '../errors.js';

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, hash: string): Promise<boolean>;
  /** How many bcrypt jobs run now (at most PASSWORD_WORK.concurrency). */
  activeCount(): number;
}

/** bcrypt reads only the first 72 bytes of its input and silently ignores the rest. */
const BCRYPT_MAX_BYTES = 72;

/**
 * Passwords may be up to 128 characters (up to 512 bytes of UTF-8): a longer one is first reduced
 * to its SHA-256 digest (44 base64 characters), so that every character counts. Shorter ones are
 * hashed as they are, so existing hashes stay valid.
 */
function bcryptInput(password: string): string {
  return Buffer.byteLength(password, 'utf8') > BCRYPT_MAX_BYTES
    ? createHash('sha256').update(password, 'utf8').digest('base64')
    : password;
}

/** A hash of a random password, compared against when no user matches, so timing is the same. */
let dummyHash: Promise<string> | undefined;

/**
 * How much bcrypt work one process does at once. Each job holds one of libuv's 4 pool threads
 * for about 250 ms (cost 12); two at a time keep both cores busy while the other two threads stay
 * free for static files, DNS and compression. Past `waiting` queued jobs a request is answered
 * 503 at once (Retry-After), instead of waiting ever longer: password work (sign-ins, sign-ups,
 * password changes, wrong current passwords) can never starve the rest of the server.
 */
export const PASSWORD_WORK = { concurrency: 2, waiting: 64, retryAfterSeconds: 2 };

export function createPasswordHasher(
  cost: number,
  work: { concurrency: number; waiting: number; retryAfterSeconds: number } = PASSWORD_WORK,
): PasswordHasher {
  const queue = pLimit(work.concurrency);
  const run = <T>(job: () => Promise<T>): Promise<T> => {
    // Running and waiting together: p-limit starts a queued job a microtask later.
    if (queue.activeCount + queue.pendingCount >= work.concurrency + work.waiting) {
      return Promise.reject(Busy(apiMessages.serverBusy, work.retryAfterSeconds));
    }
    return queue(job);
  };
  return {
    hash: (password) => run(() => bcrypt.hash(bcryptInput(password), cost)),
    verify: (password, hash) => run(() => bcrypt.compare(bcryptInput(password), hash)),
    activeCount: () => queue.activeCount,
  };
}

export function timingDummyHash(cost: number): Promise<string> {
  dummyHash ??= bcrypt.hash(`no-user-${Math.random()}`, cost);
  return dummyHash;
}
