import type { Kysely } from 'kysely';

// Frozen in time: this migration must never import application code.
// The language a person chose in the app ('en', 'de'), so that what the server writes to them
// (e-mails, the unsubscribe pages) speaks it too. Null until they use the app once signed in.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('language', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('language').execute();
}
