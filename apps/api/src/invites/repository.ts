import type { Kysely, Selectable } from 'kysely';
import type { Database, InvitesTable } from '../db/tables.js';

export type InviteRow = Selectable<InvitesTable> & { creator_name: string | null };

export async function insertInvite(
  db: Kysely<Database>,
  row: Selectable<InvitesTable>,
): Promise<void> {
  await db.insertInto('invites').values(row).execute();
}

function selectInvites(db: Kysely<Database>) {
  return db
    .selectFrom('invites as i')
    .leftJoin('users as u', 'u.id', 'i.created_by')
    .selectAll('i')
    .select('u.name as creator_name');
}

export function findInviteById(db: Kysely<Database>, id: string): Promise<InviteRow | undefined> {
  return selectInvites(db).where('i.id', '=', id).executeTakeFirst();
}

export function findInviteByTokenHash(
  db: Kysely<Database>,
  tokenHash: string,
): Promise<InviteRow | undefined> {
  return selectInvites(db).where('i.token_hash', '=', tokenHash).executeTakeFirst();
}

/** A page of invitations, newest first, those before `before` (keyset on (created_at, id)). */
export function listInviteRows(
  db: Kysely<Database>,
  page: { limit: number; before?: readonly [string, string] },
): Promise<InviteRow[]> {
  let query = selectInvites(db);
  const { before } = page;
  if (before) {
    query = query.where((eb) =>
      eb(eb.refTuple('i.created_at', 'i.id'), '<', eb.tuple(before[0], before[1])),
    );
  }
  return query.orderBy('i.created_at', 'desc').orderBy('i.id', 'desc').limit(page.limit).execute();
}

/**
 * Uses an invitation up, if it is still usable at `now`: one conditional update, so of two
 * sign-ups racing with one link exactly one succeeds. Answers whether this call used it.
 */
export async function useInvite(
  trx: Kysely<Database>,
  id: string,
  userId: string,
  now: string,
): Promise<boolean> {
  const result = await trx
    .updateTable('invites')
    .set({ used_at: now, used_by: userId })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Revokes an invitation not yet used; answers whether it changed. */
export async function revokeInvite(trx: Kysely<Database>, id: string, now: string) {
  const result = await trx
    .updateTable('invites')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
