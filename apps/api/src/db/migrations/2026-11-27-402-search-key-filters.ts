import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never import application code.
//
// SQLite: each full-text row's task priority and due date too, beside its status and creation
// time (migration 2026-11-27-401), kept by triggers in the writing transaction. A search
// narrowed by priority or due date, or sorted by due date or priority, is then counted and paged
// from the full-text index and these keys alone: before, it read every matching task from
// `tasks` (two B-tree lookups a match, 6,666 matches for a common word at 100,000 tasks: 48 ms of
// CPU for `q=review&priority=High&due=later&sort=dueDate`). PostgreSQL is left as it is.
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`alter table task_search_keys add column priority text`.execute(db);
  await sql`alter table task_search_keys add column due_date text`.execute(db);
  await sql`update task_search_keys set
    priority = (select t.priority from tasks t where t.id = task_search_keys.task_id),
    due_date = (select t.due_date from tasks t where t.id = task_search_keys.task_id)`.execute(db);
  // A key is added by task_search_after_task_insert, once the task row exists.
  await sql`create trigger task_search_keys_filters_after_insert
    after insert on task_search_keys begin
      update task_search_keys set
        priority = (select t.priority from tasks t where t.id = new.task_id),
        due_date = (select t.due_date from tasks t where t.id = new.task_id)
        where search_id = new.search_id;
    end`.execute(db);
  await sql`create trigger task_search_filters_after_task_update
    after update of priority, due_date on tasks
    when old.priority is not new.priority or old.due_date is not new.due_date begin
      update task_search_keys set priority = new.priority, due_date = new.due_date
        where task_id = new.id;
    end`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`drop trigger if exists task_search_filters_after_task_update`.execute(db);
  await sql`drop trigger if exists task_search_keys_filters_after_insert`.execute(db);
  await sql`alter table task_search_keys drop column due_date`.execute(db);
  await sql`alter table task_search_keys drop column priority`.execute(db);
}
