import type { Request } from 'express';
import type { Logger } from 'pino';
import type { Role } from '@task-manager/shared';

export type LoginFailure = 'unknown-email' | 'wrong-password';
export type RevocationReason =
  | 'logout'
  | 'logout-all'
  | 'password-change'
  | 'password-reset'
  | 'role-change'
  | 'deactivated'
  | 'user-deleted';

/**
 * Security events as structured log lines with an `event` field, for an operator or a log
 * pipeline to alert on. Each takes only ids, e-mail addresses and request paths: never a
 * password, token, hash, invite code or header, so none can reach the log by accident.
 */
export interface AuthEvents {
  loginSucceeded(userId: string): void;
  loginFailed(email: string, reason: LoginFailure): void;
  registered(userId: string, role: Role): void;
  tokensRevoked(userId: string, reason: RevocationReason): void;
  /** A 401 on a route that needs a sign-in. */
  unauthorized(req: Request): void;
  /** Any 403. */
  forbidden(req: Request): void;
  /** Sending a "forgot password" link failed after the request was answered. */
  passwordResetFailed(error: unknown): void;
  /** Queueing the notice of an e-mail or password change failed (the change itself stands). */
  accountNoticeFailed(error: unknown): void;
}

export function createAuthEvents(logger: Logger): AuthEvents {
  // The path without its query string: a query could carry anything the caller typed.
  const where = (req: Request) => ({
    reqId: req.id,
    method: req.method,
    path: req.originalUrl.split('?')[0],
  });
  return {
    loginSucceeded: (userId) => logger.info({ event: 'auth.login.succeeded', userId }),
    loginFailed: (email, reason) =>
      logger.warn({ event: 'auth.login.failed', email: email.toLowerCase(), reason }),
    registered: (userId, role) => logger.info({ event: 'auth.register', userId, role }),
    tokensRevoked: (userId, reason) => logger.info({ event: 'auth.token.revoked', userId, reason }),
    unauthorized: (req) => logger.warn({ event: 'auth.unauthorized', ...where(req) }),
    forbidden: (req) =>
      logger.warn({ event: 'auth.forbidden', userId: req.user?.id ?? null, ...where(req) }),
    passwordResetFailed: (error) =>
      logger.error({ event: 'auth.password-reset.failed', err: error }),
    accountNoticeFailed: (error) =>
      logger.error({ event: 'auth.account-notice.failed', err: error }),
  };
}
