import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.js';

/**
 * How far a scheduled job got: an instant per job, kept in the app's key-value settings under
 * `scheduler.<job>` (the settings feature never reads these keys). Written by the process that
 * holds the job's lease (lease.ts), so one writer at a time.
 */
const keyOf = (job: string) => `scheduler.${job}`;

export async function readJobMark(db: Kysely<Database>, job: string): Promise<Date | undefined> {
  const row = await db
    .selectFrom('app_settings')
    .select('value')
    .where('key', '=', keyOf(job))
    .executeTakeFirst();
  const at = Date.parse(row?.value ?? '');
  return Number.isFinite(at) ? new Date(at) : undefined;
}

export async function writeJobMark(db: Kysely<Database>, job: string, at: Date): Promise<void> {
  const value = at.toISOString();
  await db
    .insertInto('app_settings')
    .values({ key: keyOf(job), value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}
