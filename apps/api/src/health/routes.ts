import { Router } from 'express';
import type { Kysely } from 'kysely';
import { apiMessages } from '@task-manager/shared';
import { ping } from '../db/database.js';
import type { Database } from '../db/tables.js';

/** A load balancer probes every few seconds: it needs an answer, not a hanging connection. */
export const READY_TIMEOUT_MS = 2_000;

/**
 * Liveness (`/health`: the process answers) and readiness (`/ready`: it can serve requests,
 * i.e. its database answers and it is not shutting down). No auth, no rate limit: probes call
 * them often and carry no credentials.
 */
export function healthRoutes(deps: {
  db: Kysely<Database>;
  isShuttingDown: () => boolean;
  readyTimeoutMs?: number;
}): Router {
  const router = Router();
  const timeoutMs = deps.readyTimeoutMs ?? READY_TIMEOUT_MS;

  router.get('/health', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok' });
  });

  router.get('/ready', async (req, res) => {
    // A cached "ready" from a proxy would hide an outage.
    res.set('Cache-Control', 'no-store');
    if (deps.isShuttingDown()) {
      res.status(503).json({ message: apiMessages.shuttingDown });
      return;
    }
    const failure = await settlesWithin(ping(deps.db), timeoutMs);
    if (failure) {
      req.log.warn({ reason: failure }, 'readiness check: database unavailable');
      res.status(503).json({ message: apiMessages.databaseUnavailable });
      return;
    }
    res.json({ status: 'ready' });
  });

  return router;
}

/** Undefined when `check` succeeds within `ms`; otherwise why not. Never rejects. */
async function settlesWithin(check: Promise<unknown>, ms: number): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${ms} ms`), ms);
  });
  try {
    return await Promise.race([
      check.then(
        () => undefined,
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
