import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never import application code.
//
// Full-text search over a task's title, description and checklist texts (issue 22), in each
// engine's own full-text index, kept in step by triggers: whoever writes (the API, the bulk
// loader, a hand-written statement), the index changes in the same transaction. Searching is
// case- and accent-insensitive, with prefix matching; apps/api/src/tasks/search.ts builds the
// queries. To index more text (comments), change `document` below in a new migration.
//
// SQLite: an FTS5 table without a copy of the text (contentless, deletable rows), folding case
// and accents itself (unicode61, remove_diacritics 2) and keeping prefix indexes for 2 and 3
// characters. FTS5 rows are found by integer rowid: `task_search_keys` gives each task one
// (tasks.rowid would do, but VACUUM may renumber it), and deleting a task deletes its key
// (foreign key), which deletes its row of the index (trigger).
//
// PostgreSQL: a tsvector per task (the `simple` configuration: no stemming or stop words, so a
// prefix of any word finds it) with a GIN index. Accents are taken off before (Unicode NFD, then
// the combining marks dropped), with built-in functions only: no extension to install.
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`create table task_search (
      task_id text primary key references tasks(id) on delete cascade,
      document tsvector not null
    )`.execute(db);
    await sql`create index task_search_document_idx on task_search using gin (document)`.execute(
      db,
    );
    await sql`create function task_search_fold(value text) returns text
      language sql immutable parallel safe
      as $$ select regexp_replace(normalize(value, NFD), '[\u0300-\u036f]', '', 'g') $$`.execute(
      db,
    );
    await sql`create function task_search_refresh(ids text[]) returns void language sql as $$
      insert into task_search (task_id, document)
      select t.id, to_tsvector('simple', task_search_fold(
        t.title || ' ' || t.description || coalesce(
          (select ' ' || string_agg(i.text, ' ') from todo_items i where i.task_id = t.id), '')))
      from tasks t where t.id = any(ids)
      on conflict (task_id) do update set document = excluded.document
    $$`.execute(db);
    // Inserts and deletes by statement (a checklist is replaced in one or two statements), edits
    // of a text by row: PostgreSQL has no transition tables for triggers on some columns only.
    await sql`create function task_search_new_tasks() returns trigger language plpgsql as $$
      begin perform task_search_refresh(array(select id from new_rows)); return null; end $$`.execute(
      db,
    );
    await sql`create function task_search_new_items() returns trigger language plpgsql as $$
      begin perform task_search_refresh(array(select distinct task_id from new_rows)); return null; end $$`.execute(
      db,
    );
    await sql`create function task_search_old_items() returns trigger language plpgsql as $$
      begin perform task_search_refresh(array(select distinct task_id from old_rows)); return null; end $$`.execute(
      db,
    );
    await sql`create function task_search_changed_row() returns trigger language plpgsql as $$
      begin
        if tg_table_name = 'todo_items' then
          perform task_search_refresh(array[old.task_id, new.task_id]);
        else
          perform task_search_refresh(array[new.id]);
        end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger task_search_after_task_insert after insert on tasks
      referencing new table as new_rows for each statement
      execute function task_search_new_tasks()`.execute(db);
    await sql`create trigger task_search_after_task_update after update of title, description
      on tasks for each row
      when (old.title is distinct from new.title or old.description is distinct from new.description)
      execute function task_search_changed_row()`.execute(db);
    await sql`create trigger task_search_after_item_insert after insert on todo_items
      referencing new table as new_rows for each statement
      execute function task_search_new_items()`.execute(db);
    await sql`create trigger task_search_after_item_delete after delete on todo_items
      referencing old table as old_rows for each statement
      execute function task_search_old_items()`.execute(db);
    await sql`create trigger task_search_after_item_update after update of text, task_id
      on todo_items for each row
      when (old.text is distinct from new.text or old.task_id is distinct from new.task_id)
      execute function task_search_changed_row()`.execute(db);
    await sql`select task_search_refresh(array(select id from tasks))`.execute(db);
    return;
  }

  await sql`create table task_search_keys (
    search_id integer primary key,
    task_id text not null unique references tasks(id) on delete cascade
  )`.execute(db);
  await sql`create virtual table task_search using fts5(
    document, content = '', contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
  )`.execute(db);
  const refresh = (taskId: string) => `
    delete from task_search
      where rowid = (select search_id from task_search_keys where task_id = ${taskId});
    insert into task_search (rowid, document)
      select k.search_id, t.title || ' ' || t.description || coalesce(
        (select ' ' || group_concat(i.text, ' ') from todo_items i where i.task_id = t.id), '')
      from task_search_keys k join tasks t on t.id = k.task_id
      where k.task_id = ${taskId};`;
  await sql`create trigger task_search_keys_after_delete after delete on task_search_keys begin
    delete from task_search where rowid = old.search_id;
  end`.execute(db);
  await sql
    .raw(
      `create trigger task_search_after_task_insert after insert on tasks begin
        insert into task_search_keys (task_id) values (new.id);
        ${refresh('new.id')}
      end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger task_search_after_task_update after update of title, description on tasks
        when old.title is not new.title or old.description is not new.description begin
        ${refresh('new.id')}
      end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger task_search_after_item_insert after insert on todo_items begin
        ${refresh('new.task_id')}
      end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger task_search_after_item_delete after delete on todo_items begin
        ${refresh('old.task_id')}
      end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger task_search_after_item_update after update of text, task_id on todo_items
        when old.text is not new.text or old.task_id is not new.task_id begin
        ${refresh('old.task_id')}
        ${refresh('new.task_id')}
      end`,
    )
    .execute(db);
  await sql`insert into task_search_keys (task_id) select id from tasks`.execute(db);
  await sql`insert into task_search (rowid, document)
    select k.search_id, t.title || ' ' || t.description || coalesce(
      (select ' ' || group_concat(i.text, ' ') from todo_items i where i.task_id = t.id), '')
    from task_search_keys k join tasks t on t.id = k.task_id`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop table if exists task_search cascade`.execute(db);
    for (const [trigger, table] of [
      ['task_search_after_task_insert', 'tasks'],
      ['task_search_after_task_update', 'tasks'],
      ['task_search_after_item_insert', 'todo_items'],
      ['task_search_after_item_delete', 'todo_items'],
      ['task_search_after_item_update', 'todo_items'],
    ] as const) {
      await sql`drop trigger if exists ${sql.raw(trigger)} on ${sql.raw(table)}`.execute(db);
    }
    await sql`drop function if exists task_search_changed_row(), task_search_old_items(),
      task_search_new_items(), task_search_new_tasks(), task_search_refresh(text[]),
      task_search_fold(text)`.execute(db);
    return;
  }
  for (const trigger of [
    'task_search_after_item_update',
    'task_search_after_item_delete',
    'task_search_after_item_insert',
    'task_search_after_task_update',
    'task_search_after_task_insert',
    'task_search_keys_after_delete',
  ]) {
    await sql`drop trigger if exists ${sql.raw(trigger)}`.execute(db);
  }
  await sql`drop table if exists task_search`.execute(db);
  await sql`drop table if exists task_search_keys`.execute(db);
}
