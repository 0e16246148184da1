import type { Kysely } from 'kysely';

// Frozen in time: this migration must never import application code.
//
// Notifications, e-mail preferences, calendar feeds and scheduled jobs (issue 17).
// - notifications: one row per person told; `task_id` has no foreign key (the row outlives its
//   task, `data` keeps the title); `dedupe_key` is unique and set for reminders
//   ('due_soon:<task>:<user>:<due>'), so a second run or a second process inserts nothing
//   (ON CONFLICT DO NOTHING). NULLs never collide in a unique index, on both engines.
//   `mailed_at`: when it went out by mail (or needs no mail); null: waiting for the digest.
// - notification_preferences: one row per person and kind that differs from the default.
// - calendar_feeds: a person's secret iCalendar address and its scope. The secret itself is kept
//   (not a digest): the profile page shows the address again, as calendar apps need it whole.
// - job_leases: who runs a scheduled job until when; taken with one conditional write.
// - mail_outbox.headers: extra mail headers (List-Unsubscribe), JSON text.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('notifications')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('task_id', 'text')
    .addColumn('actor_id', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('data', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('read_at', 'text')
    .addColumn('mailed_at', 'text')
    .addColumn('dedupe_key', 'text', (col) => col.unique())
    .execute();
  await db.schema
    .createIndex('notifications_user_created_idx')
    .on('notifications')
    .columns(['user_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('notifications_unmailed_idx')
    .on('notifications')
    .columns(['mailed_at', 'user_id'])
    .execute();

  await db.schema
    .createTable('notification_preferences')
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('mode', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('notification_preferences_pk', ['user_id', 'kind'])
    .execute();

  await db.schema
    .createTable('calendar_feeds')
    .addColumn('user_id', 'text', (col) =>
      col.primaryKey().references('users.id').onDelete('cascade'),
    )
    .addColumn('secret', 'text', (col) => col.notNull().unique())
    .addColumn('scope', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('job_leases')
    .addColumn('name', 'text', (col) => col.primaryKey())
    .addColumn('holder', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema.alterTable('mail_outbox').addColumn('headers', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail_outbox').dropColumn('headers').execute();
  await db.schema.dropTable('job_leases').execute();
  await db.schema.dropTable('calendar_feeds').execute();
  await db.schema.dropTable('notification_preferences').execute();
  await db.schema.dropTable('notifications').execute();
}
