import os from 'node:os';
import proxyAddr from 'proxy-addr';
import { z } from 'zod';
import type { EventBusOptions } from './events/bus.js';

/**
 * The only reader of process.env. Parsed once at start; a bad value stops start-up with a list of
 * every problem. Secrets that may be generated (JWT_SECRET outside production, ADMIN_INVITE_TOKEN)
 * are resolved later against DATA_DIR or the database, see server.ts.
 */
const durationPattern = /^\d+(ms|s|m|h|d|w|y)?$/;

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(8000),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
    REDIS_URL: z
      .string()
      .refine((value) => /^rediss?:\/\/\S+$/.test(value) && URL.canParse(value), {
        message: 'must be a redis:// or rediss:// URL',
      })
      .optional(),
    JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    JWT_EXPIRES_IN: z
      .string()
      .regex(durationPattern, 'must be a duration such as 3600, 15m, 12h or 7d')
      .default('7d'),
    ADMIN_INVITE_TOKEN: z
      .string()
      .regex(/^\d{6}$/, 'must be exactly 6 digits')
      .optional(),
    CORS_ORIGIN: z
      .string()
      .optional()
      .transform((value) =>
        (value ?? '')
          .split(',')
          .map((origin) => origin.trim())
          .filter(Boolean),
      )
      .refine((origins) => origins.every((origin) => /^https?:\/\/[^/\s]+$/.test(origin)), {
        message: 'must be comma-separated origins such as https://tasks.example.com',
      }),
    // Worker processes serving HTTP (node:cluster), or `auto` for one per core. Default 1, one
    // plain process: SQLite serialises writers anyway, each worker costs its own memory and
    // connection pool, and rate limits are per process unless REDIS_URL is set.
    WEB_CONCURRENCY: z
      .string()
      .default('1')
      .refine((value) => value === 'auto' || (/^\d+$/.test(value) && +value >= 1 && +value <= 64), {
        message: 'must be a whole number from 1 to 64, or auto',
      })
      .transform((value) => (value === 'auto' ? Math.min(os.availableParallelism(), 64) : +value)),
    // Who may sign up: anyone (open, the spec's behaviour) or only with an invitation link.
    SIGNUP_MODE: z.enum(['open', 'invite']).default('open'),
    // The largest file that can be attached to a task, in megabytes (issue 16).
    MAX_FILE_MB: z.coerce.number().int().min(1).max(1024).default(25),
    // Where e-mail goes out (password resets): smtp://user:pass@host:587 or smtps://...:465.
    SMTP_URL: z
      .string()
      .refine((value) => /^smtps?:\/\/\S+$/.test(value) && URL.canParse(value), {
        message: 'must be an smtp:// or smtps:// URL',
      })
      .optional(),
    MAIL_FROM: z.string().min(3).max(320).default('Task Manager <no-reply@localhost>'),
    // The address people open the app at: links in e-mails point there, never to whatever Host
    // header a request came with (which would let anyone send a reset link to their own site).
    PUBLIC_URL: z
      .string()
      .regex(/^https?:\/\/[^/\s]+\/?$/, 'must be an origin such as https://tasks.example.com')
      .transform((value) => value.replace(/\/$/, ''))
      .optional(),
    AUTH_RATE_LIMIT: z.coerce.number().int().min(1).max(100000).default(10),
    BCRYPT_COST: z.coerce.number().int().min(4).max(15).default(12),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    TRUST_PROXY: z
      .string()
      .optional()
      .transform((value, ctx): TrustProxy => {
        const problem = trustProxyProblem(value);
        if (problem) {
          ctx.addIssue({ code: 'custom', message: problem });
          return z.NEVER;
        }
        if (value === undefined || value === 'false' || value === '0') return false;
        if (/^\d+$/.test(value)) return Number(value);
        return value.split(',').map((address) => address.trim());
      }),
  })
  .superRefine((env, ctx) => {
    if (env.SMTP_URL && !env.PUBLIC_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['PUBLIC_URL'],
        message: 'is required when SMTP_URL is set: links in e-mails point to it',
      });
    }
    if (env.NODE_ENV === 'production' && !env.JWT_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['JWT_SECRET'],
        message: 'is required when NODE_ENV=production',
      });
    }
  });

export type Env = z.infer<typeof envSchema>;

/**
 * Whom to believe about the client's address (X-Forwarded-For) and protocol: nobody (false), the
 * nearest N hops, or the proxies at these addresses (IPs, CIDR ranges, or `loopback`,
 * `linklocal`, `uniquelocal`), as Express's `trust proxy` reads them.
 */
export type TrustProxy = false | number | string[];

/**
 * Why a TRUST_PROXY value is refused. `true` trusts every hop, so any client chooses its own
 * address with X-Forwarded-For and escapes every per-IP limit: it is never accepted.
 */
function trustProxyProblem(value: string | undefined): string | undefined {
  if (value === undefined || value === 'false') return undefined;
  if (value === 'true') {
    return (
      'must not be true: that believes any client about its own IP address (X-Forwarded-For) ' +
      'and lifts every per-IP limit. Give the number of proxies in front (such as 1) or their ' +
      'addresses (such as loopback or 10.0.0.2)'
    );
  }
  if (/^\d+$/.test(value)) {
    return Number(value) <= 10 ? undefined : 'must be a number of proxies from 0 to 10';
  }
  try {
    proxyAddr.compile(value.split(',').map((address) => address.trim()));
    return undefined;
  } catch {
    return (
      'must be false, a number of proxies (such as 1) or comma-separated proxy addresses ' +
      '(IPs, CIDR ranges, loopback, linklocal or uniquelocal)'
    );
  }
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function parseEnv(source: NodeJS.ProcessEnv = process.env): Readonly<Env> {
  // An empty variable is the same as an unset one (docker compose passes "" for blanks).
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([, value]) => value !== undefined && value !== ''),
  );
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => `${issue.path.join('.') || 'env'} ${issue.message}`),
    );
  }
  return Object.freeze(result.data);
}

/** What createApp needs: resolved, with no optional secrets left. */
export interface AppConfig {
  jwtSecret: string;
  jwtExpiresIn: string;
  adminInviteToken: string;
  corsOrigins: string[];
  authRateLimit: number;
  bcryptCost: number;
  trustProxy: TrustProxy;
  /** How much bcrypt work runs at once and may wait (default PASSWORD_WORK; tests lower it). */
  passwordWork?: { concurrency: number; waiting: number; retryAfterSeconds: number };
  /** Folder of the built web app to serve, when there is one. */
  webDistDir?: string;
  /**
   * Bytes the uploads no user has claimed may hold together (default MAX_UNCLAIMED_IMAGE_BYTES,
   * in images/service.ts): a constant, not a variable; tests give a small one.
   */
  unclaimedImageQuotaBytes?: number;
  /** SIGNUP_MODE (default open). */
  signupMode?: 'open' | 'invite';
  /** MAX_FILE_MB in bytes: the largest file attached to a task (default 25 MB). */
  maxFileBytes?: number;
  /** PUBLIC_URL: where calendar feed addresses point (none: the address a request came to). */
  publicUrl?: string;
  /** Live updates: heartbeat and polling intervals (defaults in events/bus.ts; tests shorten). */
  liveEvents?: EventBusOptions;
  /** E-mail (SMTP_URL, MAIL_FROM, PUBLIC_URL); none: no password reset by e-mail. */
  mail?: {
    smtpUrl: string;
    from: string;
    publicUrl: string;
    /** How often the outbox is looked at besides after each queued mail (default 10 s). */
    pollMs?: number;
    /** The first retry's delay (default 30 s); tests shorten it. */
    retryDelayMs?: number;
  };
}
