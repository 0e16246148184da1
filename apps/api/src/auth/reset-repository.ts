import type { Kysely, Selectable } from 'kysely';
import type { Database, PasswordResetsTable } from '../db/tables.js';

export type PasswordResetRow = Selectable<PasswordResetsTable>;

export async function insertPasswordReset(
  db: Kysely<Database>,
  row: PasswordResetRow,
): Promise<void> {
  await db.insertInto('password_resets').values(row).execute();
}

export function findPasswordReset(db: Kysely<Database>, tokenHash: string) {
  return db
    .selectFrom('password_resets')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/**
 * Uses a reset link up if it is still usable at `now`, and with it every other link of the same
 * person (one reset ends them all): a conditional update, so a link works exactly once.
 */
export async function usePasswordReset(
  trx: Kysely<Database>,
  row: PasswordResetRow,
  now: string,
): Promise<boolean> {
  const result = await trx
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('id', '=', row.id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return false;
  await trx
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('user_id', '=', row.user_id)
    .where('used_at', 'is', null)
    .execute();
  return true;
}

/** Forgets links that can no longer be used. */
export async function pruneOldPasswordResets(db: Kysely<Database>, now: string): Promise<void> {
  await db.deleteFrom('password_resets').where('expires_at', '<', now).execute();
}
