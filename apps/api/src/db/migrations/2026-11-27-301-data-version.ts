import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never import application code.
//
// One number that moves whenever anything a task answer, a task list or a dashboard shows may
// have changed: the validator of their ETags (issue 19), so that a client's refetch with
// If-None-Match is answered 304 after one single-row read instead of a page of queries.
//
// Kept by TRIGGERS, like task_counts (2026-11-23-003): every writer (the API, seed:load, a
// restore, SQL by hand) moves it, in the writer's own transaction. It moves on any write to the
// tables whose rows the answers show: tasks, their checklist items, assignees, links, labels
// and files; label names and colours; the name, e-mail, photo and active flag of users (shown as
// assignees); comments (the full-text search of the list matches comment text).
//
// SQLite: a row trigger per table and operation; SQLite has one writer at a time, so the row is
// no point of contention.
//
// PostgreSQL: DEFERRED constraint triggers, so the version row is updated at COMMIT, as the last
// lock a transaction takes: a writer never holds it while it waits for a task row or the events
// lock, so it can be part of no deadlock, and it is held only for the instant of the commit.
// Constraint triggers are row-level; a transaction-local setting makes every row after the
// first one per transaction a no-op, so a bulk write bumps it once.
const WATCHED: Array<{ table: string; update?: string[] }> = [
  { table: 'tasks' },
  { table: 'todo_items' },
  { table: 'task_assignees' },
  { table: 'attachments' },
  { table: 'task_labels' },
  { table: 'task_files' },
  { table: 'labels' },
  { table: 'comments' },
  { table: 'users', update: ['name', 'email', 'profile_image_url', 'active'] },
];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('data_version')
    .addColumn('id', 'integer', (col) => col.primaryKey().check(sql`id = 1`))
    .addColumn('version', 'bigint', (col) => col.notNull())
    .execute();
  await sql`insert into data_version (id, version) values (1, 1)`.execute(db);

  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`create function data_version_bump() returns trigger language plpgsql as $$
      begin
        if current_setting('task_manager.data_version_bumped', true) = 'yes' then
          return null;
        end if;
        perform set_config('task_manager.data_version_bumped', 'yes', true);
        update data_version set version = version + 1 where id = 1;
        return null;
      end $$`.execute(db);
    for (const { table, update } of WATCHED) {
      const updateOf = update ? `update of ${update.join(', ')}` : 'update';
      await sql`create constraint trigger ${sql.raw(`data_version_${table}`)}
        after insert or ${sql.raw(updateOf)} or delete on ${sql.table(table)}
        deferrable initially deferred
        for each row execute function data_version_bump()`.execute(db);
    }
    return;
  }
  for (const { table, update } of WATCHED) {
    for (const operation of ['insert', 'update', 'delete']) {
      const on = operation === 'update' && update ? `update of ${update.join(', ')}` : operation;
      await sql`create trigger ${sql.raw(`data_version_${table}_${operation}`)}
        after ${sql.raw(on)} on ${sql.table(table)} begin
          update data_version set version = version + 1 where id = 1;
        end`.execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    for (const { table } of WATCHED) {
      await sql`drop trigger if exists ${sql.raw(`data_version_${table}`)} on ${sql.table(table)}`.execute(
        db,
      );
    }
    await sql`drop function if exists data_version_bump()`.execute(db);
  } else {
    for (const { table } of WATCHED) {
      for (const operation of ['insert', 'update', 'delete']) {
        await sql`drop trigger if exists ${sql.raw(`data_version_${table}_${operation}`)}`.execute(
          db,
        );
      }
    }
  }
  await db.schema.dropTable('data_version').ifExists().execute();
}
