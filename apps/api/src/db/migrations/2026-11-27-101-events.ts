import { PostgresAdapter, type Kysely } from 'kysely';

// Frozen in time: this migration must never import application code.
//
// Live updates (issue 17): `events` is the log every Server-Sent Events stream is fed from, and
// what a reconnecting client replays after its Last-Event-ID. Written in the transaction of the
// change, so an event exists exactly when its change committed. `id` grows in commit order
// (PostgreSQL writers serialise on an advisory lock before inserting, see src/events/log.ts).
// `audience` is the JSON array of user ids allowed to receive it; `to_admins` 1 when every admin
// may too. No foreign key on task_id: the event of a deleted task outlives it.
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('events')
    .addColumn('id', pg ? 'bigserial' : 'integer', (col) =>
      pg ? col.primaryKey() : col.primaryKey().autoIncrement(),
    )
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('task_id', 'text')
    .addColumn('audience', 'text', (col) => col.notNull())
    .addColumn('to_admins', 'integer', (col) => col.notNull())
    .addColumn('data', 'text', (col) => col.notNull())
    .addColumn('at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('events_at_idx').on('events').column('at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('events').execute();
}
