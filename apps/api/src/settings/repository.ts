import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.js';

/** Stores `value` under `key` unless a value is there already (the first writer wins). */
export async function insertSettingIfAbsent(db: Kysely<Database>, key: string, value: string) {
  await db
    .insertInto('app_settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
}

export async function readSetting(db: Kysely<Database>, key: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('app_settings')
    .select('value')
    .where('key', '=', key)
    .executeTakeFirst();
  return row?.value;
}

/** Stores `value` under `key`, replacing any value there. */
export async function writeSetting(db: Kysely<Database>, key: string, value: string) {
  await db
    .insertInto('app_settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}
