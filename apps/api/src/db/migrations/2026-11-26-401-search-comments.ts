import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never import application code.
//
// Search finds tasks by their comments too (issue 22: "and comments, once they exist"). The
// document each task has in the full-text index (migration 2026-11-26-202-task-search) becomes
// title, description, checklist texts and comment bodies; triggers on comments keep it in step in
// the writing transaction, as for checklist items; the index is filled again at the end.

const PG_DOCUMENT = `t.title || ' ' || t.description
  || coalesce((select ' ' || string_agg(i.text, ' ') from todo_items i where i.task_id = t.id), '')
  || coalesce((select ' ' || string_agg(c.body, ' ') from comments c where c.task_id = t.id), '')`;

const SQLITE_DOCUMENT = `t.title || ' ' || t.description
  || coalesce((select ' ' || group_concat(i.text, ' ') from todo_items i where i.task_id = t.id), '')
  || coalesce((select ' ' || group_concat(c.body, ' ') from comments c where c.task_id = t.id), '')`;

function sqliteRefresh(taskId: string, document: string): string {
  return `
    delete from task_search
      where rowid = (select search_id from task_search_keys where task_id = ${taskId});
    insert into task_search (rowid, document)
      select k.search_id, ${document}
      from task_search_keys k join tasks t on t.id = k.task_id
      where k.task_id = ${taskId};`;
}

/** The SQLite triggers of migration 202 and this one, each with the document it builds. */
function sqliteTriggers(document: string, withComments: boolean): string[] {
  const refresh = (taskId: string) => sqliteRefresh(taskId, document);
  return [
    `create trigger task_search_after_task_insert after insert on tasks begin
      insert into task_search_keys (task_id) values (new.id);
      ${refresh('new.id')}
    end`,
    `create trigger task_search_after_task_update after update of title, description on tasks
      when old.title is not new.title or old.description is not new.description begin
      ${refresh('new.id')}
    end`,
    `create trigger task_search_after_item_insert after insert on todo_items begin
      ${refresh('new.task_id')}
    end`,
    `create trigger task_search_after_item_delete after delete on todo_items begin
      ${refresh('old.task_id')}
    end`,
    `create trigger task_search_after_item_update after update of text, task_id on todo_items
      when old.text is not new.text or old.task_id is not new.task_id begin
      ${refresh('old.task_id')}
      ${refresh('new.task_id')}
    end`,
    ...(withComments
      ? [
          `create trigger task_search_after_comment_insert after insert on comments begin
            ${refresh('new.task_id')}
          end`,
          `create trigger task_search_after_comment_delete after delete on comments begin
            ${refresh('old.task_id')}
          end`,
          `create trigger task_search_after_comment_update after update of body, task_id on comments
            when old.body is not new.body or old.task_id is not new.task_id begin
            ${refresh('old.task_id')}
            ${refresh('new.task_id')}
          end`,
        ]
      : []),
  ];
}

const SQLITE_TRIGGERS = [
  'task_search_after_task_insert',
  'task_search_after_task_update',
  'task_search_after_item_insert',
  'task_search_after_item_delete',
  'task_search_after_item_update',
  'task_search_after_comment_insert',
  'task_search_after_comment_delete',
  'task_search_after_comment_update',
];

async function rebuildSqlite(db: Kysely<any>, document: string, withComments: boolean) {
  for (const trigger of SQLITE_TRIGGERS) {
    await sql`drop trigger if exists ${sql.raw(trigger)}`.execute(db);
  }
  for (const statement of sqliteTriggers(document, withComments)) {
    await sql.raw(statement).execute(db);
  }
  await sql`delete from task_search`.execute(db);
  await sql
    .raw(
      `insert into task_search (rowid, document)
        select k.search_id, ${document}
        from task_search_keys k join tasks t on t.id = k.task_id`,
    )
    .execute(db);
}

async function definePgRefresh(db: Kysely<any>, document: string) {
  await sql
    .raw(
      `create or replace function task_search_refresh(ids text[]) returns void language sql as $$
        insert into task_search (task_id, document)
        select t.id, to_tsvector('simple', task_search_fold(${document}))
        from tasks t where t.id = any(ids)
        on conflict (task_id) do update set document = excluded.document
      $$`,
    )
    .execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await definePgRefresh(db, PG_DOCUMENT);
    await sql`create function task_search_changed_comment() returns trigger language plpgsql as $$
      begin perform task_search_refresh(array[old.task_id, new.task_id]); return null; end $$`.execute(
      db,
    );
    // Inserts and deletes by statement with the rows' tasks; edits of a body by row.
    await sql`create trigger task_search_after_comment_insert after insert on comments
      referencing new table as new_rows for each statement
      execute function task_search_new_items()`.execute(db);
    await sql`create trigger task_search_after_comment_delete after delete on comments
      referencing old table as old_rows for each statement
      execute function task_search_old_items()`.execute(db);
    await sql`create trigger task_search_after_comment_update after update of body, task_id
      on comments for each row
      when (old.body is distinct from new.body or old.task_id is distinct from new.task_id)
      execute function task_search_changed_comment()`.execute(db);
    await sql`select task_search_refresh(array(select task_id from comments))`.execute(db);
    return;
  }
  await rebuildSqlite(db, SQLITE_DOCUMENT, true);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    for (const trigger of [
      'task_search_after_comment_insert',
      'task_search_after_comment_delete',
      'task_search_after_comment_update',
    ]) {
      await sql`drop trigger if exists ${sql.raw(trigger)} on comments`.execute(db);
    }
    await sql`drop function if exists task_search_changed_comment()`.execute(db);
    await definePgRefresh(
      db,
      `t.title || ' ' || t.description || coalesce(
        (select ' ' || string_agg(i.text, ' ') from todo_items i where i.task_id = t.id), '')`,
    );
    await sql`select task_search_refresh(array(select id from tasks))`.execute(db);
    return;
  }
  await rebuildSqlite(
    db,
    `t.title || ' ' || t.description || coalesce(
      (select ' ' || group_concat(i.text, ' ') from todo_items i where i.task_id = t.id), '')`,
    false,
  );
}
