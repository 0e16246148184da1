import { createHash, timingSafeEqual } from 'node:crypto';

/** Constant-time comparison: hashing first makes both sides the same length. */
export function inviteTokenMatches(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
