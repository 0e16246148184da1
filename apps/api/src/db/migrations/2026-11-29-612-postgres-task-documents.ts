import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never import application code.
//
// PostgreSQL keeps each task's JSON once built, as SQLite does since 2026-11-27-501 (issue 19: at
// 1,000,000 tasks the statement that builds a page's 100 tasks is most of the database's work
// for the page). SQLite's way is not enough here: a reader's statement sees a snapshot taken when
// it started, so a reader could store a text built before a write that committed meanwhile, after
// that write's trigger had deleted nothing. So, on PostgreSQL:
//
// - A writer forgets texts AT COMMIT: DEFERRED constraint triggers (as data_version's, 2026-11-27-
//   301), which first take the data version's row lock (bumping it, once per transaction, as
//   data_version_bump does) and only then delete. Every delete of a text happens under that lock,
//   so there is no foreign key (its cascade would delete without it): a deleted task's texts go
//   with its row's trigger, in the same commit.
// - A reader stores the texts it built only if the data version is still the one its building
//   statement saw, checked under a share lock of that row (SKIP LOCKED: a reader never waits for a
//   committing writer; it then simply does not store). While the reader holds that share, no writer
//   can be forgetting; once the reader commits, a writer that commits later forgets what it stored.
//   (src/tasks/documents.ts.)
const TASK_CHILDREN = ['todo_items', 'task_assignees', 'attachments', 'task_labels', 'task_files'];

export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`create table task_documents (
    task_id text not null,
    shape text not null,
    document text not null,
    primary key (task_id, shape)
  )`.execute(db);
  await sql`create function task_documents_forget() returns trigger language plpgsql as $$
    begin
      if current_setting('task_manager.data_version_bumped', true) is distinct from 'yes' then
        perform set_config('task_manager.data_version_bumped', 'yes', true);
        update data_version set version = version + 1 where id = 1;
      end if;
      if tg_table_name = 'tasks' then
        delete from task_documents where task_id = old.id;
      elsif tg_table_name = 'labels' then
        delete from task_documents
          where task_id in (select task_id from task_labels where label_id = new.id);
      elsif tg_table_name = 'users' then
        delete from task_documents
          where task_id in (select task_id from task_assignees where user_id = new.id);
      else
        if tg_op <> 'INSERT' then
          delete from task_documents where task_id = old.task_id;
        end if;
        if tg_op = 'INSERT' or (tg_op = 'UPDATE' and new.task_id <> old.task_id) then
          delete from task_documents where task_id = new.task_id;
        end if;
      end if;
      return null;
    end $$`.execute(db);
  const forgetOn = (name: string, events: string, table: string) =>
    sql`create constraint trigger ${sql.raw(name)} after ${sql.raw(events)} on ${sql.table(table)}
      deferrable initially deferred for each row execute function task_documents_forget()`.execute(
      db,
    );
  await forgetOn('task_documents_tasks', 'update or delete', 'tasks');
  for (const table of TASK_CHILDREN) {
    await forgetOn(`task_documents_${table}`, 'insert or update or delete', table);
  }
  await forgetOn('task_documents_labels', 'update of name, color, name_key', 'labels');
  await forgetOn(
    'task_documents_users',
    'update of name, email, profile_image_url, active',
    'users',
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const table of ['tasks', ...TASK_CHILDREN, 'labels', 'users']) {
    await sql`drop trigger if exists ${sql.raw(`task_documents_${table}`)} on ${sql.table(table)}`.execute(
      db,
    );
  }
  await sql`drop function if exists task_documents_forget()`.execute(db);
  await sql`drop table if exists task_documents`.execute(db);
}
