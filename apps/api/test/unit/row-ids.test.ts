import { validate, version } from 'uuid';
import { describe, expect, it } from 'vitest';
import { newRowId } from '../../src/db/row-ids.js';

/** A UUID of version 7 as RFC 9562 writes it: its first 48 bits the Unix time in milliseconds. */
const msecsOf = (id: string) => parseInt(id.replaceAll('-', '').slice(0, 12), 16);

/**
 * newRowId draws its random bytes from a pool (db/row-ids.ts) and counts ids within one
 * millisecond itself: what it gives must still be what v7() gave.
 */
describe('newRowId', () => {
  it('gives valid version 7 UUIDs that sort in the order they were made', () => {
    // Far more ids than one pool holds (4 KB: 256 ids), most within the same millisecond.
    const ids = Array.from({ length: 5000 }, () => newRowId());
    for (const id of ids) {
      expect(validate(id)).toBe(true);
      expect(version(id)).toBe(7);
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    // Their last five bytes are random bytes only: taken afresh for each id, never reused.
    expect(new Set(ids.map((id) => id.slice(-10))).size).toBe(ids.length);
  });

  it('carries the time it was made, to the millisecond', () => {
    const before = Date.now();
    const id = newRowId();
    // The counter may borrow a millisecond or two when a millisecond makes very many ids.
    expect(msecsOf(id)).toBeGreaterThanOrEqual(before);
    expect(msecsOf(id)).toBeLessThanOrEqual(Date.now() + 2);
  });

  it('is random beyond the time: ids of separate milliseconds share no random part', async () => {
    const first = newRowId();
    await new Promise((resolve) => setTimeout(resolve, 3));
    const second = newRowId();
    expect(msecsOf(second)).toBeGreaterThan(msecsOf(first));
    // The last five bytes are random bytes of the pool, taken afresh for each id.
    expect(second.slice(-10)).not.toBe(first.slice(-10));
  });
});
