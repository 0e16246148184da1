import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import {
  MemoryStore,
  rateLimit,
  type Options,
  type RateLimitInfo,
  type Store,
} from 'express-rate-limit';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import { apiMessages, emailSchema, registerSchema } from '@task-manager/shared';
import { errorBody } from '../errors.js';

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

/**
 * Wrong admin invite codes from all addresses together. However many IPs an attacker spreads
 * the guesses over, at most 50 codes in 15 minutes are tried (a million values: 570 years to try
 * half of them); then every sign-up with a code is refused until the window ends, even with the
 * right code, and the log says so. Sign-ups without a code go on.
 */
export const INVITE_FAILURES_ALL = { limit: 50, windowMs: 15 * MINUTE };

/** The counts of one named limiter: in this process (none given), or shared through Redis. */
export type RateLimitStoreFactory = (name: string) => Store;

/**
 * Each route's limits, in the order they run: `perIp` (or `perUser`) first, before anything reads
 * the body, so that a refused request costs no parsing; the failure counts after the body parser,
 * since they read the e-mail or the invite code from it.
 */
export interface AuthLimits {
  signIn: { perIp: RequestHandler; failures: RequestHandler[] };
  signUp: { perIp: RequestHandler; failures: RequestHandler[] };
  upload: RequestHandler;
  /** PUT /api/auth/profile, after requireAuth: counted per signed-in user. */
  profile: { perUser: RequestHandler; failures: RequestHandler[] };
  /**
   * The password-reset requests (per IP, then per e-mail address: a few mails an hour, so no
   * one floods an inbox) and confirmations, and the invitation lookup (per IP: tokens are
   * unguessable, the limit only keeps the work small).
   */
  passwordReset: { perIp: RequestHandler; perAccount: RequestHandler; confirm: RequestHandler };
  inviteLookup: RequestHandler;
}

/** Reset mails per e-mail address, whatever the IP. */
export const RESET_MAILS_PER_ACCOUNT = { limit: 5, windowMs: 60 * MINUTE };

/**
 * The limits of the endpoints that cost a password hash or an image decode, or guess a secret.
 * Each answers 429 {message} with Retry-After and the draft-7 RateLimit headers of the limit that
 * refused. A passing request shows only its per-IP (or per-user) headers: how often someone got
 * an account's password wrong is no one else's business, so the failure counts send none.
 */
export function createAuthLimits(options: {
  /** Requests a minute per IP (per user for the profile) on each route (AUTH_RATE_LIMIT). */
  perMinute: number;
  stores?: RateLimitStoreFactory;
  logger: Logger;
}): AuthLimits {
  const { logger } = options;
  const limiter = (name: string, settings: Partial<Options>, onRefused?: (req: Request) => void) =>
    rateLimit({
      standardHeaders: 'draft-7',
      legacyHeaders: false,
      handler: (req, res, _next, used) => {
        onRefused?.(req);
        refuse(req, res, used.windowMs);
      },
      // express-rate-limit's configuration warnings go to our log, not the console.
      logger,
      ...(options.stores && { store: options.stores(name) }),
      ...settings,
    });
  const perMinute = (name: string, settings: Partial<Options> = {}) =>
    limiter(name, { windowMs: MINUTE, limit: options.perMinute, ...settings });
  /** Counts only the requests that `failed` says failed; sends no headers until it refuses. */
  const failures = (
    name: string,
    window: { limit: number; windowMs: number },
    settings: Partial<Pick<Options, 'skip' | 'keyGenerator'>> & {
      failed: (res: Response) => boolean;
    },
    onRefused?: (req: Request) => void,
  ) =>
    limiter(
      name,
      {
        ...window,
        standardHeaders: false,
        ...(settings.skip && { skip: settings.skip }),
        ...(settings.keyGenerator && { keyGenerator: settings.keyGenerator }),
        skipSuccessfulRequests: true,
        requestWasSuccessful: (_req, res) => !settings.failed(res),
      },
      onRefused,
    );

  // Only sign-ups that reach the code check: valid input carrying a code. Past validation, a
  // 400 is a wrong code; anything else (201, 409, 429) is no failure.
  const inviteFailures = {
    skip: (req: Request) => {
      const input = registerSchema.safeParse(req.body);
      return !input.success || input.data.adminInviteToken === undefined;
    },
    failed: (res: Response) => res.statusCode === 400,
  };

  return {
    signIn: {
      perIp: perMinute('sign-in'),
      failures: [
        // Only a wrong password (401) counts, from whichever IPs it came.
        failures('sign-in-failures-by-account', ACCOUNT_FAILURES, {
          skip: (req) => accountKey(req) === undefined,
          keyGenerator: (req) => accountKey(req) ?? '',
          failed: (res) => res.statusCode === 401,
        }),
      ],
    },
    signUp: {
      perIp: perMinute('sign-up'),
      failures: [
        failures('invite-failures', INVITE_FAILURES, inviteFailures),
        failures(
          'invite-failures-all',
          INVITE_FAILURES_ALL,
          { ...inviteFailures, keyGenerator: () => 'all' },
          (req) =>
            logger.warn(
              {
                event: 'auth.invite.locked',
                reqId: req.id,
                limit: INVITE_FAILURES_ALL.limit,
                windowMinutes: INVITE_FAILURES_ALL.windowMs / MINUTE,
              },
              'admin invite sign-ups refused: too many wrong invite codes from all addresses',
            ),
        ),
      ],
    },
    upload: perMinute('upload'),
    passwordReset: {
      perIp: perMinute('password-reset'),
      perAccount: limiter('password-reset-by-account', {
        ...RESET_MAILS_PER_ACCOUNT,
        standardHeaders: false,
        skip: (req) => accountKey(req) === undefined,
        keyGenerator: (req) => accountKey(req) ?? '',
      }),
      confirm: perMinute('password-reset-confirm'),
    },
    inviteLookup: perMinute('invite-lookup'),
    profile: {
      perUser: perMinute('profile', { keyGenerator: (req) => userKey(req) }),
      failures: [
        // A wrong current password counts like a wrong sign-in: 10 per account per 15 minutes,
        // then 429 even for the right one, so a stolen token cannot guess the password.
        failures('current-password-failures-by-user', ACCOUNT_FAILURES, {
          keyGenerator: (req) => userKey(req),
          failed: (res) => res.locals.errorCode === 'wrong_current_password',
        }),
      ],
    },
  };
}

/** 429 with Retry-After and the draft-7 headers of the limit that refused. */
function refuse(req: Request, res: Response, windowMs: number) {
  // express-rate-limit puts its count on the request before it calls the handler.
  const info = (req as Request & { rateLimit?: RateLimitInfo }).rateLimit;
  const resetMs = info?.resetTime ? info.resetTime.getTime() - Date.now() : windowMs;
  const resetSeconds = Math.max(1, Math.ceil(resetMs / 1000));
  res.set({
    'Retry-After': String(resetSeconds),
    'RateLimit-Policy': `${info?.limit ?? 0};w=${Math.ceil(windowMs / 1000)}`,
    RateLimit: `limit=${info?.limit ?? 0}, remaining=0, reset=${resetSeconds}`,
  });
  res.status(429).json(errorBody(429, apiMessages.tooManyRequests));
}

/** The signed-in caller's id (the profile limits run after requireAuth). */
function userKey(req: Request): string {
  return req.user?.id ?? '';
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
