import type { Kysely } from 'kysely';
import { apiMessages } from '@task-manager/shared';
import { ping } from '../db/database.js';
import type { Database } from '../db/tables.js';

/** A load balancer probes every few seconds: it needs an answer, not a hanging connection. */
export const READY_TIMEOUT_MS = 2_000;

/** Why this process cannot serve requests now: the message to answer, and the reason to log. */
export interface NotReady {
  message: string;
  reason?: string;
}

/**
 * Liveness and readiness: a process is ready while its database answers within the timeout and
 * it is not shutting down.
 */
export class HealthService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly isShuttingDown: () => boolean,
    private readonly readyTimeoutMs = READY_TIMEOUT_MS,
  ) {}

  /** Undefined when ready; otherwise why not. */
  async notReady(): Promise<NotReady | undefined> {
    if (this.isShuttingDown()) return { message: apiMessages.shuttingDown };
    const failure = await settlesWithin(ping(this.db), this.readyTimeoutMs);
    return failure ? { message: apiMessages.databaseUnavailable, reason: failure } : undefined;
  }
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
