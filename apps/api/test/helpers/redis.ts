import type { Redis } from 'ioredis';
import { pino } from 'pino';
import { createRateLimitRedis } from '../../src/http/rate-limit.js';

/** The Redis the rate-limit tests share their counts through (each under its own prefix). */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A Redis client as the server makes it, once connected. */
export async function connectRedis(url = TEST_REDIS_URL): Promise<Redis> {
  const redis = await createRateLimitRedis(url, pino({ level: 'silent' }));
  await new Promise<void>((resolve, reject) => {
    redis.once('ready', resolve);
    redis.once('error', reject);
  });
  return redis;
}
