import type { Response } from 'supertest';
import { expect } from 'vitest';
import { apiMessages } from '@task-manager/shared';

/**
 * A rate limit's refusal: 429 JSON with its code, Retry-After within the window, and the draft-7
 * headers of the limit that refused. Answers the Retry-After seconds.
 */
export function expectTooMany(res: Response, windowSeconds: number): number {
  expect(res.status).toBe(429);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.body).toEqual({ message: apiMessages.tooManyRequests, code: 'too_many_requests' });
  const retryAfter = Number(res.headers['retry-after']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
  // draft-7 headers: the policy and what is left of it.
  expect(res.headers['ratelimit-policy']).toMatch(new RegExp(`^\\d+;w=${windowSeconds}$`));
  expect(res.headers['ratelimit']).toMatch(/^limit=\d+, remaining=0, reset=\d+$/);
  return retryAfter;
}
