import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never import application code.
//
// SQLite: each full-text row's task status and creation time, beside it in task_search_keys,
// kept by triggers in the writing transaction. A search's status counts (the list's
// statusSummary) then group the full-text matches by status, and its newest-first page picks
// its tasks by creation time, without reading every matching task from `tasks` (two B-tree
// lookups a match: most of a search's cost on 100,000 tasks). PostgreSQL's index holds the task
// id in the same row as its tsvector, and is left as it is.
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`alter table task_search_keys add column status text`.execute(db);
  await sql`alter table task_search_keys add column created_at text`.execute(db);
  await sql`update task_search_keys set
    status = (select t.status from tasks t where t.id = task_search_keys.task_id),
    created_at = (select t.created_at from tasks t where t.id = task_search_keys.task_id)`.execute(
    db,
  );
  // A key is added by task_search_after_task_insert, once the task row exists.
  await sql`create trigger task_search_keys_status_after_insert
    after insert on task_search_keys begin
      update task_search_keys set
        status = (select t.status from tasks t where t.id = new.task_id),
        created_at = (select t.created_at from tasks t where t.id = new.task_id)
        where search_id = new.search_id;
    end`.execute(db);
  await sql`create trigger task_search_status_after_task_update
    after update of status, created_at on tasks
    when old.status is not new.status or old.created_at is not new.created_at begin
      update task_search_keys set status = new.status, created_at = new.created_at
        where task_id = new.id;
    end`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`drop trigger if exists task_search_status_after_task_update`.execute(db);
  await sql`drop trigger if exists task_search_keys_status_after_insert`.execute(db);
  await sql`alter table task_search_keys drop column created_at`.execute(db);
  await sql`alter table task_search_keys drop column status`.execute(db);
}
