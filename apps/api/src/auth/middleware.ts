import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import type { Kysely } from 'kysely';
import { apiMessages, type Role } from '@task-manager/shared';
import type { Database } from '../db/tables.js';
import { Forbidden, HttpError, Unauthorized } from '../errors.js';
import type { AuthEvents } from './events.js';
import { findSessionUser } from './repository.js';
import type { TokenClaims, TokenService } from './tokens.js';

/** The token a request was signed in with: what logout needs to end it. */
export type RequestToken = Pick<TokenClaims, 'jti' | 'expiresAt'>;

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      authToken?: RequestToken;
    }
  }
}

/**
 * Checks the Bearer token and loads its user on every request, so a deleted user, a logged-out
 * token, or a token issued before a password or role change, is refused at once.
 */
export function requireAuth(
  db: Kysely<Database>,
  tokens: TokenService,
  events: AuthEvents,
): RequestHandler {
  return async (req, _res, next) => {
    const header = req.get('authorization') ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const claims = match?.[1] ? tokens.verify(match[1]) : null;
    const user = claims ? await findSessionUser(db, claims.sub, claims.jti) : undefined;
    // A valid token of a deactivated account: refused, saying why (the web app tells the person).
    // Deactivation also raised the token version, so this holds for tokens signed in between too.
    if (claims && user && Number(user.active) !== 1) {
      events.unauthorized(req);
      throw new HttpError(401, apiMessages.accountDeactivated, undefined, {
        code: 'account_deactivated',
      });
    }
    if (!claims || !user || user.token_version !== claims.ver) {
      events.unauthorized(req);
      throw Unauthorized();
    }
    req.user = {
      id: user.id,
      role: user.role,
      tokenVersion: user.token_version,
      dataVersion: Number(user.data_version ?? 0),
    };
    req.authToken = { jti: claims.jti, expiresAt: claims.expiresAt };
    next();
  };
}

export function currentToken(req: Request): RequestToken {
  if (!req.authToken) throw Unauthorized();
  return req.authToken;
}

export function requireRole(role: Role): RequestHandler {
  return (req, _res, next) => {
    if (req.user?.role !== role) throw Forbidden();
    next();
  };
}

/** Logs every 403, wherever it was thrown, then hands the error on to the error handler. */
export function logForbidden(events: AuthEvents): ErrorRequestHandler {
  return (error: unknown, req, _res, next) => {
    if (error instanceof HttpError && error.status === 403) events.forbidden(req);
    next(error);
  };
}
