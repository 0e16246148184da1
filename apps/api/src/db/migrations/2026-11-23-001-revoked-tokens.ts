import type { Kysely } from 'kysely';

// Frozen in time: this migration must never import application code.
// Tokens ended before they expire (logout). A row is only needed until the token would have
// expired anyway, so rows are pruned by `expires_at` (ISO-8601 text, which sorts as time).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('revoked_tokens')
    .addColumn('jti', 'text', (col) => col.primaryKey())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('revoked_tokens_expires_idx')
    .on('revoked_tokens')
    .column('expires_at')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('revoked_tokens').ifExists().execute();
}
