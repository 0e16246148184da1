import { createHash } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { MemoryStore, rateLimit, type Options, type Store } from 'express-rate-limit';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import { apiMessages, emailSchema, registerSchema } from '@task-manager/shared';

const MINUTE = 60_000;

/**
 * Failed sign-ins per account (normalised e-mail), whatever the IP: a botnet spreading its
 * guesses over many addresses still gets 10 tries per 15 minutes at one password. The price is
 * that anyone can lock an account for 15 minutes; its owner is told to try again later.
 */
export const ACCOUNT_FAILURES = { limit: 10, windowMs: 15 * MINUTE };

/**
 * Wrong admin invite codes per IP. A 6-digit code has a million values: at 5 guesses per 15
 * minutes (480 a day) one address needs almost 3 years to try half of them.
 */
export const INVITE_FAILURES = { limit: 5, windowMs: 15 * MINUTE };

/** The counts of one named limiter: in this process (none given), or shared through Redis. */
export type RateLimitStoreFactory = (name: string) => Store;

export interface AuthLimits {
  signIn: RequestHandler[];
  signUp: RequestHandler[];
  upload: RequestHandler;
}

/**
 * The limits of the open endpoints that cost a password hash or an image decode, or guess a
 * secret. Each answers 429 {message} with Retry-After and the draft-7 RateLimit headers.
 */
export function createAuthLimits(options: {
  /** Requests a minute per IP on each of sign-in, sign-up and upload (AUTH_RATE_LIMIT). */
  perMinute: number;
  stores?: RateLimitStoreFactory;
  logger: Logger;
}): AuthLimits {
  const limiter = (name: string, settings: Partial<Options>) =>
    rateLimit({
      standardHeaders: 'draft-7',
      legacyHeaders: false,
      handler: (_req, res) => {
        res.status(429).json({ message: apiMessages.tooManyRequests });
      },
      // express-rate-limit's configuration warnings go to our log, not the console.
      logger: options.logger,
      ...(options.stores && { store: options.stores(name) }),
      ...settings,
    });
  const perIp = (name: string) => limiter(name, { windowMs: MINUTE, limit: options.perMinute });

  return {
    // The per-IP limiter goes last: a passing request then shows its RateLimit headers, which
    // overwrite those of the failure counts (how often someone got an account's password wrong
    // is no one else's business). A refusal shows the headers of the limit that refused.
    signIn: [
      limiter('sign-in-failures-by-account', {
        ...ACCOUNT_FAILURES,
        // Only a wrong password (401) counts: the rest is taken off again once answered.
        skipSuccessfulRequests: true,
        requestWasSuccessful: (_req, res) => res.statusCode !== 401,
        skip: (req) => accountKey(req) === undefined,
        keyGenerator: (req) => accountKey(req) ?? '',
      }),
      perIp('sign-in'),
    ],
    signUp: [
      limiter('invite-failures', {
        ...INVITE_FAILURES,
        // Only sign-ups that reach the code check: valid input carrying a code.
        skip: (req) => {
          const input = registerSchema.safeParse(req.body);
          return !input.success || input.data.adminInviteToken === undefined;
        },
        // Past validation, a 400 is a wrong code; anything else (201, 409, 429) is no failure.
        skipSuccessfulRequests: true,
        requestWasSuccessful: (_req, res) => res.statusCode !== 400,
      }),
      perIp('sign-up'),
    ],
    upload: perIp('upload'),
  };
}

/** The account a sign-in is for, hashed so no e-mail address is stored in Redis. */
function accountKey(req: Request): string | undefined {
  const email = emailSchema.safeParse((req.body as { email?: unknown } | undefined)?.email);
  return email.success ? createHash('sha256').update(email.data).digest('base64url') : undefined;
}

/** A Redis client for the limiters, tuned to answer at once or fail (see `redisStores`). */
export async function createRateLimitRedis(url: string, logger: Logger): Promise<Redis> {
  // Loaded only when REDIS_URL is set: a single process starts without it.
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    // While disconnected a command fails at once instead of waiting in a queue for Redis.
    enableOfflineQueue: false,
    // A Redis that takes the connection but does not answer must not hold sign-ins either (at
    // worst a second per limiter: the store tries a second time after reloading its script).
    commandTimeout: 500,
    maxRetriesPerRequest: 1,
  });
  // ioredis retries every few seconds on its own; one line per outage, not one per retry.
  let down = false;
  redis.on('error', (error: Error) => {
    if (!down) logger.warn({ err: error }, 'rate limits: Redis connection failed; retrying');
    down = true;
  });
  redis.on('ready', () => {
    if (down) logger.info('rate limits: Redis connection is back');
    down = false;
  });
  return redis;
}

/**
 * Stores that count in Redis, so every API process shares the counts. `prefix` keeps apart the
 * keys of several apps (or test runs) on one Redis.
 *
 * When Redis fails, a request neither waits nor fails: it is counted in this process instead
 * (its own MemoryStore) until Redis answers again. Failing closed would lock everyone out of
 * signing in whenever Redis is down; failing open would lift every brute-force limit exactly
 * when an attacker managed to take Redis down. Counting locally keeps each process's limits,
 * which is what a single-process deployment has anyway.
 */
export function redisStores(
  redis: Redis,
  logger: Logger,
  prefix = 'task-manager:rate-limit:',
): RateLimitStoreFactory {
  let counting: 'shared' | 'local' = 'shared';
  const health = {
    ok: () => {
      if (counting === 'local') logger.info('rate limits: counting in Redis again');
      counting = 'shared';
    },
    failed: (error: unknown) => {
      if (counting === 'shared') {
        logger.warn({ err: error }, 'rate limits: Redis unavailable; counting in this process');
      }
      counting = 'local';
    },
  };
  return (name) => {
    const shared = new RedisStore({
      sendCommand: (command: string, ...args: string[]) =>
        redis.call(command, ...args) as Promise<RedisReply>,
      prefix: `${prefix}${name}:`,
    });
    return new RedisOrLocalStore(shared, new MemoryStore(), health);
  };
}

class RedisOrLocalStore implements Store {
  readonly localKeys = false;
  readonly prefix: string;

  constructor(
    private readonly shared: RedisStore,
    private readonly local: MemoryStore,
    private readonly health: { ok(): void; failed(error: unknown): void },
  ) {
    this.prefix = shared.prefix;
    // The store loads its scripts at once; when Redis is down that fails, and it loads them
    // again on first use. Without a handler the failure would be an unhandled rejection.
    shared.incrementScriptSha.catch(() => undefined);
    shared.getScriptSha.catch(() => undefined);
  }

  init(options: Options) {
    this.shared.init(options);
    this.local.init(options);
  }

  increment(key: string) {
    return this.either((store) => store.increment(key));
  }

  decrement(key: string) {
    return this.either((store) => store.decrement(key));
  }

  resetKey(key: string) {
    return this.either((store) => store.resetKey(key));
  }

  shutdown() {
    this.local.shutdown();
  }

  private async either<T>(use: (store: Store) => T | Promise<T>): Promise<T> {
    try {
      const result = await use(this.shared);
      this.health.ok();
      return result;
    } catch (error) {
      this.health.failed(error);
      return use(this.local);
    }
  }
}
