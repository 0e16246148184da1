import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never import application code.
//
// The live-update log (2026-11-27-101) is written by every change to a task, and read only by id.
// Two of its structures cost each of those writes a page and a b-tree update, for a prune that
// runs every ten minutes (issue 19):
//
// - its index on `at`, read only by the prune: the prune now deletes the events before the first
//   one still young enough in id order (src/events/bus.ts), a walk over the events it deletes;
// - on SQLite, AUTOINCREMENT, whose `sqlite_sequence` row every insert reads and writes. It was
//   there so that ids are never handed out twice; without it SQLite gives a new row the highest
//   id + 1, so the prune keeps the newest event, however old, and no id comes back.
//
// SQLite cannot drop AUTOINCREMENT from a table: the log is copied into one made without it. A
// log pruned empty before this change still knows its last id (in `sqlite_sequence`): an event
// for nobody is left at that id, so the next one follows it.
const COLUMNS = 'id, type, task_id, audience, to_admins, data, at';

async function rebuild(db: Kysely<any>, idColumn: string, keepLastId: boolean) {
  await sql
    .raw(
      `create table events_rebuilt (
      ${idColumn},
      type text not null,
      task_id text,
      audience text not null,
      to_admins integer not null,
      data text not null,
      at text not null
    )`,
    )
    .execute(db);
  await sql
    .raw(`insert into events_rebuilt (${COLUMNS}) select ${COLUMNS} from events`)
    .execute(db);
  if (keepLastId) {
    await sql`insert into events_rebuilt (${sql.raw(COLUMNS)})
      select seq, 'task.updated', null, '[]', 0, '{}', ${new Date().toISOString()}
      from sqlite_sequence
      where name = 'events' and seq > coalesce((select max(id) from events_rebuilt), 0)`.execute(
      db,
    );
  }
  await sql`drop table events`.execute(db);
  await sql`alter table events_rebuilt rename to events`.execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop index if exists events_at_idx`.execute(db);
    return;
  }
  await rebuild(db, 'id integer primary key', true);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) {
    await rebuild(db, 'id integer primary key autoincrement', false);
  }
  await sql`create index events_at_idx on events (at)`.execute(db);
}
