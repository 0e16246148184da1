import { rateLimit } from 'express-rate-limit';
import type { RequestHandler } from 'express';
import { apiMessages } from '@task-manager/shared';

/**
 * Per-IP limiter for sign-in, sign-up and uploads: `limit` requests a minute per route, then
 * 429 with Retry-After.
 */
export function createAuthLimiter(limit: number): () => RequestHandler {
  return () =>
    rateLimit({
      windowMs: 60_000,
      limit,
      standardHeaders: 'draft-7',
      legacyHeaders: false,
      handler: (_req, res) => {
        res.status(429).json({ message: apiMessages.tooManyRequests });
      },
    });
}
