import { sql, type Insertable, type Kysely } from 'kysely';
import { supportsRowLocks } from '../db/database.js';
import type { Database, ImagesTable } from '../db/tables.js';

export async function insertImage(db: Kysely<Database>, row: Insertable<ImagesTable>) {
  await db.insertInto('images').values(row).execute();
}

export function findImage(db: Kysely<Database>, id: string) {
  return db
    .selectFrom('images')
    .select(['content_type', 'data'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * Makes the image the user's own: one that no one owns, or that is theirs already. In the
 * transaction that writes the user's photo link, so that both happen or neither. The UPDATE
 * locks the row on PostgreSQL: of two sign-ups with one upload, the second finds it taken.
 */
export async function claimImage(
  trx: Kysely<Database>,
  imageId: string,
  userId: string,
): Promise<'claimed' | 'missing' | 'taken'> {
  const result = await trx
    .updateTable('images')
    .set({ owner_id: userId })
    .where('id', '=', imageId)
    .where((eb) => eb.or([eb('owner_id', 'is', null), eb('owner_id', '=', userId)]))
    .executeTakeFirst();
  if (result.numUpdatedRows > 0n) return 'claimed';
  const exists = await trx
    .selectFrom('images')
    .select('id')
    .where('id', '=', imageId)
    .executeTakeFirst();
  return exists ? 'taken' : 'missing';
}

/** Deletes the user's former photo (theirs only: an image someone else owns stays). */
export async function deleteOwnImage(
  trx: Kysely<Database>,
  imageId: string,
  userId: string,
): Promise<void> {
  await trx.deleteFrom('images').where('id', '=', imageId).where('owner_id', '=', userId).execute();
}

export interface UnclaimedUsage {
  bytes: number;
  count: number;
  /** When the oldest unclaimed image was uploaded (ISO-8601); null when there is none. */
  oldestCreatedAt: string | null;
}

/** The uploads no user uses yet: read from the (owner_id, created_at, byte_size) index alone. */
export async function unclaimedUsage(db: Kysely<Database>): Promise<UnclaimedUsage> {
  const row = await db
    .selectFrom('images')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number | string>('byte_size'), sql<number>`0`).as('bytes'),
      eb.fn.countAll<number | string>().as('count'),
      eb.fn.min<string | null>('created_at').as('oldest'),
    ])
    .where('owner_id', 'is', null)
    .executeTakeFirstOrThrow();
  return { bytes: Number(row.bytes), count: Number(row.count), oldestCreatedAt: row.oldest };
}

/**
 * Deletes up to `limit` uploads that no user claimed and that were made before `cutoff`, oldest
 * first, through the (owner_id, created_at) index; answers how many it deleted. Only unclaimed
 * images are ever unused: a photo is claimed in the transaction that links it, a replaced or
 * removed photo is deleted in the transaction that unlinks it, and a deleted user's go with them.
 *
 * Safe beside a sign-up claiming one of them, and beside other processes sweeping. SQLite runs
 * one writing transaction at a time. On PostgreSQL the candidates are locked first, skipping
 * rows another transaction holds (a claim in progress, another sweep); a claim committed before
 * the lock makes its row fail `owner_id is null` when the lock re-reads it; a claim that comes
 * after waits for the lock, then finds no image and answers that the photo must be uploaded again.
 */
export async function deleteUnclaimedImages(
  db: Kysely<Database>,
  cutoff: string,
  limit: number,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    let candidates = trx
      .selectFrom('images')
      .select('id')
      .where('owner_id', 'is', null)
      .where('created_at', '<', cutoff)
      .orderBy('created_at')
      .limit(limit);
    if (supportsRowLocks(trx)) candidates = candidates.forUpdate().skipLocked();
    const ids = (await candidates.execute()).map((row) => row.id);
    if (ids.length === 0) return 0;
    const result = await trx
      .deleteFrom('images')
      .where('id', 'in', ids)
      .where('owner_id', 'is', null)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  });
}
