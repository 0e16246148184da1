import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never import application code.
//
// SQLite: each full-text row's key holds its task's title sort key too, `lower(title)`, the
// expression the title sort orders by (tasks_title_idx), kept by triggers in the writing
// transaction as the other keys are (migrations 2026-11-27-401 and 402). A search sorted by
// title is then paged from the full-text index and the keys alone: before, it read every
// matching task's row from `tasks` (6,666 for `review` at 100,000 tasks: 13 ms), now its key.
// PostgreSQL is left as it is.
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`alter table task_search_keys add column title_key text`.execute(db);
  await sql`update task_search_keys set
    title_key = (select lower(t.title) from tasks t where t.id = task_search_keys.task_id)`.execute(
    db,
  );
  // A key is added by task_search_after_task_insert, once the task row exists.
  await sql`create trigger task_search_keys_title_after_insert
    after insert on task_search_keys begin
      update task_search_keys set
        title_key = (select lower(t.title) from tasks t where t.id = new.task_id)
        where search_id = new.search_id;
    end`.execute(db);
  await sql`create trigger task_search_title_after_task_update
    after update of title on tasks
    when old.title is not new.title begin
      update task_search_keys set title_key = lower(new.title) where task_id = new.id;
    end`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`drop trigger if exists task_search_title_after_task_update`.execute(db);
  await sql`drop trigger if exists task_search_keys_title_after_insert`.execute(db);
  await sql`alter table task_search_keys drop column title_key`.execute(db);
}
