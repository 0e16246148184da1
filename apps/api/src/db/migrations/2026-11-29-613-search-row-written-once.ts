import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never import application code.
//
// SQLite: a checklist written whole (a new task's, or an edited one's) writes the task's
// full-text row once, not once per item. SQLite's triggers run for each row, so the item
// triggers wrote the whole row again for every item inserted or deleted: a task created with
// 30 items wrote it 31 times, each time with all the items so far (creating it cost 4.4 ms of
// SQLite against 3.0 written once; 100 items 16 ms against 7). PostgreSQL's triggers already run
// once per statement.
//
// While a task's id is in `task_search_deferred`, its items' insert and delete triggers leave its
// row alone; deleting the id from that table writes the row once (tasks/repository.ts,
// searchRowWrittenOnce, within the writing transaction). Otherwise every trigger does as before.

/** The task's full-text row, with its priority facet, as migration 2026-11-27-603 writes it. */
const writeRow = (taskId: string) => `
    delete from task_search
      where rowid = (select search_id from task_search_keys where task_id = ${taskId});
    insert into task_search (rowid, document, facets)
      select k.search_id, t.title || ' ' || t.description
        || coalesce((select ' ' || group_concat(i.text, ' ') from todo_items i where i.task_id = t.id), '')
        || coalesce((select ' ' || group_concat(c.body, ' ') from comments c where c.task_id = t.id), ''),
        'zqp' || lower(t.priority)
      from task_search_keys k join tasks t on t.id = k.task_id
      where k.task_id = ${taskId};`;

/** The item triggers, with `when` (a condition, or none as before). */
async function defineItemTriggers(db: Kysely<any>, when: (taskId: string) => string) {
  for (const [event, row] of [
    ['insert', 'new'],
    ['delete', 'old'],
  ] as const) {
    await sql.raw(`drop trigger if exists task_search_after_item_${event}`).execute(db);
    await sql
      .raw(
        `create trigger task_search_after_item_${event} after ${event} on todo_items
          ${when(`${row}.task_id`)} begin ${writeRow(`${row}.task_id`)} end`,
      )
      .execute(db);
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`create table task_search_deferred (task_id text primary key) without rowid`.execute(db);
  await defineItemTriggers(
    db,
    (taskId) => `when not exists (select 1 from task_search_deferred where task_id = ${taskId})`,
  );
  await sql
    .raw(
      `create trigger task_search_after_deferred_delete after delete on task_search_deferred
        begin ${writeRow('old.task_id')} end`,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`drop trigger if exists task_search_after_deferred_delete`.execute(db);
  await defineItemTriggers(db, () => '');
  await sql`drop table if exists task_search_deferred`.execute(db);
}
