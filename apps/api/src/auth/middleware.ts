import type { RequestHandler } from 'express';
import type { Kysely } from 'kysely';
import type { Role } from '@task-manager/shared';
import type { Database } from '../db/tables.js';
import { Forbidden, Unauthorized } from '../errors.js';
import type { TokenService } from './tokens.js';

/**
 * Checks the Bearer token and loads its user on every request, so a deleted user, or a token
 * issued before a password or role change, is refused at once.
 */
export function requireAuth(db: Kysely<Database>, tokens: TokenService): RequestHandler {
  return async (req, _res, next) => {
    const header = req.get('authorization') ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const claims = match?.[1] ? tokens.verify(match[1]) : null;
    if (!claims) throw Unauthorized();
    const user = await db
      .selectFrom('users')
      .select(['id', 'role', 'token_version'])
      .where('id', '=', claims.sub)
      .executeTakeFirst();
    if (!user || user.token_version !== claims.ver) throw Unauthorized();
    req.user = { id: user.id, role: user.role, tokenVersion: user.token_version };
    next();
  };
}

export function requireRole(role: Role): RequestHandler {
  return (req, _res, next) => {
    if (req.user?.role !== role) throw Forbidden();
    next();
  };
}
