import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.js';

/**
 * Takes the lease of job `name` for `holder` until `until`, if nobody holds it now: one
 * conditional UPDATE of an expired lease, else one INSERT of a first one that does nothing on a
 * conflict. Either statement succeeds for exactly one of several processes racing for it
 * (PostgreSQL re-checks the UPDATE's condition after waiting for the row; SQLite runs one writer
 * at a time). A process that stops while holding it only delays the job until `until`.
 */
export async function takeLease(
  db: Kysely<Database>,
  name: string,
  holder: string,
  now: Date,
  until: Date,
): Promise<boolean> {
  const expiresAt = until.toISOString();
  const renewed = await db
    .updateTable('job_leases')
    .set({ holder, expires_at: expiresAt })
    .where('name', '=', name)
    .where('expires_at', '<=', now.toISOString())
    .executeTakeFirst();
  if (Number(renewed.numUpdatedRows) > 0) return true;
  const created = await db
    .insertInto('job_leases')
    .values({ name, holder, expires_at: expiresAt })
    .onConflict((oc) => oc.column('name').doNothing())
    .executeTakeFirst();
  return Number(created.numInsertedOrUpdatedRows ?? 0) > 0;
}
