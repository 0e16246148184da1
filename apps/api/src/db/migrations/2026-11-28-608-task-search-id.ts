import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never import application code.
//
// SQLite: each task keeps its full-text row id (task_search_keys.search_id) in a column of its
// own, `tasks.search_id`, and the last-update index holds it. A search's page in last-update
// order walks that index and checks each task's id against the matches read once into a list
// (tasks/repository.ts, walksSortIndex): it looked up each walked task's key by its task id
// first, a descent of the keys' unique index for every task passed (`q=budget&status=Pending
// &sort=updatedAt` on 100,000 tasks: 3.1 ms for a page of 101, now 1.7; without a status tab
// 2.1 → 1.3). The column changes only when the id does (a task's creation time is changed),
// so a checklist tick writes nothing more; a new task's row is written once more, by the
// key's own trigger below.
//
// SQLite only, as the keys themselves (2026-11-27-401): PostgreSQL's search joins the tasks.

const UPDATED_INDEX = 'updated_at, id, status, priority, due_date, created_at';

/** The triggers that follow any update of a task (not one of its columns). */
const ANY_UPDATE_TRIGGERS = ['data_version_tasks_update', 'task_documents_after_task_update'];

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`alter table tasks add column search_id integer`.execute(db);
  // The copy changes no answer: the triggers that follow every update of a task (the data
  // version, the stored answers) are set aside for it, rather than forget every stored answer.
  const { rows: kept } = await sql<{ name: string; sql: string }>`
    select name, sql from sqlite_master
    where type = 'trigger' and name in (${sql.join(ANY_UPDATE_TRIGGERS)})`.execute(db);
  for (const { name } of kept) await sql.raw(`drop trigger ${name}`).execute(db);
  await sql`update tasks set search_id =
    (select k.search_id from task_search_keys k where k.task_id = tasks.id)`.execute(db);
  for (const trigger of kept) await sql.raw(trigger.sql).execute(db);
  // The key is written when its task is (2026-11-28-607), and its id changes with the task's
  // creation time (2026-11-27-601): the task follows both.
  await sql`create trigger task_search_id_after_key_insert after insert on task_search_keys begin
    update tasks set search_id = new.search_id where id = new.task_id;
  end`.execute(db);
  await sql`create trigger task_search_id_after_key_update after update of search_id
    on task_search_keys when old.search_id is not new.search_id begin
    update tasks set search_id = new.search_id where id = new.task_id;
  end`.execute(db);
  await sql`drop index tasks_updated_idx`.execute(db);
  await sql
    .raw(`create index tasks_updated_idx on tasks (${UPDATED_INDEX}, search_id)`)
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`drop trigger if exists task_search_id_after_key_insert`.execute(db);
  await sql`drop trigger if exists task_search_id_after_key_update`.execute(db);
  await sql`drop index tasks_updated_idx`.execute(db);
  await sql.raw(`create index tasks_updated_idx on tasks (${UPDATED_INDEX})`).execute(db);
  await sql`alter table tasks drop column search_id`.execute(db);
}
