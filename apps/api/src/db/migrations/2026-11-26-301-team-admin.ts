import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never import application code.
// Running a team (issue 18): deactivated accounts, invitations, password-reset links, the mail
// outbox and the admin audit log. Secrets (invitation and reset tokens) are kept only as their
// SHA-256 digest, hex: a copy of the database lets no one in.
export async function up(db: Kysely<any>): Promise<void> {
  // 1 active, 0 deactivated (SQLite has no boolean type).
  await db.schema
    .alterTable('users')
    .addColumn('active', 'integer', (col) => col.notNull().defaultTo(1))
    .execute();
  // The team list now shows everyone by name (admins too), not only members by (role, name).
  await db.schema.createIndex('users_name_idx').on('users').columns(['name', 'id']).execute();

  await db.schema
    .createTable('invites')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('role', 'text', (col) => col.notNull())
    .addColumn('email', 'text')
    .addColumn('created_by', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .addColumn('used_at', 'text')
    .addColumn('used_by', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema
    .createIndex('invites_created_idx')
    .on('invites')
    .columns(['created_at', 'id'])
    .execute();

  await db.schema
    .createTable('password_resets')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema
    .createIndex('password_resets_user_idx')
    .on('password_resets')
    .column('user_id')
    .execute();

  // Mail waiting to be sent: written in the transaction of what causes it, sent afterwards.
  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('recipient', 'text', (col) => col.notNull())
    .addColumn('subject', 'text', (col) => col.notNull())
    .addColumn('text_body', 'text', (col) => col.notNull())
    .addColumn('html_body', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (col) => col.notNull())
    .addColumn('locked_until', 'text')
    .addColumn('sent_at', 'text')
    .addColumn('last_error', 'text')
    .execute();
  await db.schema
    .createIndex('mail_outbox_due_idx')
    .on('mail_outbox')
    .columns(['sent_at', 'next_attempt_at'])
    .execute();

  // The actor's name is copied: the log still says who after the account is deleted.
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('actor_id', 'text')
    .addColumn('actor_name', 'text', (col) => col.notNull())
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('target_type', 'text', (col) => col.notNull())
    .addColumn('target_id', 'text')
    .addColumn('target_label', 'text')
    .addColumn('data', 'text', (col) => col.notNull().defaultTo(sql`'{}'`))
    .addColumn('at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('audit_log_at_idx').on('audit_log').columns(['at', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audit_log').ifExists().execute();
  await db.schema.dropTable('mail_outbox').ifExists().execute();
  await db.schema.dropTable('password_resets').ifExists().execute();
  await db.schema.dropTable('invites').ifExists().execute();
  await db.schema.dropIndex('users_name_idx').ifExists().execute();
  await db.schema.alterTable('users').dropColumn('active').execute();
}
