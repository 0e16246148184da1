import type { Kysely } from 'kysely';

// Frozen in time: this migration must never import application code.
//
// Live updates (issue 17): the browser's EventSource cannot send a bearer header, so it opens
// `GET /api/events?ticket=…` with a short-lived, single-use ticket. Tickets live in the database
// (not in one process's memory) so a ticket issued by one API process works on another behind a
// load balancer. Only the SHA-256 of a ticket is stored; the row is deleted when it is used.
// `token_version` is the user's at issue: a sign-out everywhere or a password change in the
// seconds between makes the ticket useless. Same columns on both engines (text timestamps).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('event_tickets')
    .addColumn('ticket_hash', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_version', 'integer', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('event_tickets_expires_at_idx')
    .on('event_tickets')
    .column('expires_at')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('event_tickets').execute();
}
