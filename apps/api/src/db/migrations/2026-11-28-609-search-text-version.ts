import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never import application code.
//
// SQLite: a counter of the searched text, raised in the writing transaction by every write that
// can change which tasks a search's words match or the title a match is sorted by: a task added
// or removed (its full-text key's insert and delete, 2026-11-28-607 and 2026-11-27-601), a key's
// row id changed (a changed creation time), a title or description changed, a checklist item's
// or a comment's text added, changed, moved or removed. A checklist tick, a status, priority,
// due date or assignee change leaves it as it is. The task list keeps a search's matches for as
// long as it stays the same (tasks/search-matches.ts). PostgreSQL keeps no such cache.

const BUMP = 'update search_text_version set version = version + 1 where id = 1;';

/** Each trigger's name and what it follows. */
const TRIGGERS: Array<[name: string, on: string]> = [
  ['search_text_version_key_insert', 'after insert on task_search_keys'],
  ['search_text_version_key_delete', 'after delete on task_search_keys'],
  [
    'search_text_version_key_update',
    'after update of search_id, task_id on task_search_keys when old.search_id is not new.search_id or old.task_id is not new.task_id',
  ],
  [
    'search_text_version_task_update',
    'after update of title, description on tasks when old.title is not new.title or old.description is not new.description',
  ],
  ['search_text_version_item_insert', 'after insert on todo_items'],
  ['search_text_version_item_delete', 'after delete on todo_items'],
  [
    'search_text_version_item_update',
    'after update of text, task_id on todo_items when old.text is not new.text or old.task_id is not new.task_id',
  ],
  ['search_text_version_comment_insert', 'after insert on comments'],
  ['search_text_version_comment_delete', 'after delete on comments'],
  [
    'search_text_version_comment_update',
    'after update of body, task_id on comments when old.body is not new.body or old.task_id is not new.task_id',
  ],
];

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`create table search_text_version (
    id integer primary key check (id = 1),
    version integer not null
  )`.execute(db);
  await sql`insert into search_text_version (id, version) values (1, 1)`.execute(db);
  for (const [name, on] of TRIGGERS) {
    await sql.raw(`create trigger ${name} ${on} begin ${BUMP} end`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  for (const [name] of TRIGGERS) await sql.raw(`drop trigger if exists ${name}`).execute(db);
  await sql`drop table search_text_version`.execute(db);
}
