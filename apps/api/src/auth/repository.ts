import type { Kysely } from 'kysely';
import { compiledOnce } from '../db/compiled-once.js';
import type { Database } from '../db/tables.js';

/**
 * The user a token names, unless that token was revoked: one query per request, so that
 * requireAuth stays as cheap as before logout existed. It also reads the data version
 * (tasks/repository.ts, readDataVersion), before anything else the request reads: the conditional
 * GETs key their ETags on it without a statement of their own (a round trip on PostgreSQL).
 */
export async function findSessionUser(db: Kysely<Database>, userId: string, jti: string) {
  const [user] = await sessionUser(db, userId, jti);
  return user;
}

// Every signed-in request runs it: compiled once.
const sessionUser = compiledOnce((db: Kysely<Database>, userId: string, jti: string) =>
  db
    .selectFrom('users')
    .select(['id', 'role', 'token_version', 'active'])
    .select((eb) =>
      eb.selectFrom('data_version').select('version').where('id', '=', 1).as('data_version'),
    )
    .where('id', '=', userId)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('revoked_tokens').select('jti').where('jti', '=', jti))),
    ),
);

/** Ends one token. Two logouts racing with the same token both succeed. */
export async function revokeToken(
  db: Kysely<Database>,
  jti: string,
  expiresAt: string,
): Promise<void> {
  await db
    .insertInto('revoked_tokens')
    .values({ jti, expires_at: expiresAt })
    .onConflict((conflict) => conflict.column('jti').doNothing())
    .execute();
}

/** Forgets revocations of tokens that have expired anyway: verification refuses those. */
export async function pruneExpiredRevocations(db: Kysely<Database>, now: Date): Promise<void> {
  await db.deleteFrom('revoked_tokens').where('expires_at', '<', now.toISOString()).execute();
}
