import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never import application code.
//
// SQLite: the full-text index holds each task's priority as well, in a second column,
// `facets`, as one token (FACETS). A search narrowed to a priority then asks FTS5 for the
// words AND that token, and reads the keys of those matches alone: `review` with priority High
// reads 1,304 keys instead of 6,666 (a page in 1.5 ms instead of 2.6 on 100,000 tasks). The
// words are searched in `document` only, so no word a person types finds a facet.
//
// A facet token starts with `zq`, which starts no word: the index's two- and three-letter
// prefix indexes (`prefix = '2 3'`) hold the facets under `zq` and `zqp` alone, so a search
// for `pr` or `hi` reads no facet. The table is made anew (FTS5 adds no column), every trigger
// that writes it is defined again with the facets, and a change of priority now writes the
// task's row again, as a change of title does.

/** The facets of the task `t`, as tasks/search.ts asks for them: `zqphigh`, `zqpmedium`, `zqplow`. */
const FACETS = `'zqp' || lower(t.priority)`;

const ORDER_FLOOR = (createdAt: string) =>
  `(coalesce(cast(strftime('%s', ${createdAt}) as integer), 0) << 24)`;

/** The next free id in `createdAt`'s second, as migration 2026-11-27-601 defines it. */
const NEXT_ID = (createdAt: string) => `coalesce(
    (select max(search_id) + 1 from task_search_keys
      where search_id >= ${ORDER_FLOOR(createdAt)}
        and search_id < ${ORDER_FLOOR(createdAt)} + 16777216),
    ${ORDER_FLOOR(createdAt)})`;

/** The text each task has in the index, as migration 2026-11-26-401 defines it. */
const SQLITE_DOCUMENT = `t.title || ' ' || t.description
  || coalesce((select ' ' || group_concat(i.text, ' ') from todo_items i where i.task_id = t.id), '')
  || coalesce((select ' ' || group_concat(c.body, ' ') from comments c where c.task_id = t.id), '')`;

const TOKENIZE = `tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'`;

/** Writes the row of the task `taskId` again: with its facets, or without (`facets` null). */
function refresh(taskId: string, facets: string | null): string {
  return `
    delete from task_search
      where rowid = (select search_id from task_search_keys where task_id = ${taskId});
    insert into task_search (rowid, document${facets ? ', facets' : ''})
      select k.search_id, ${SQLITE_DOCUMENT}${facets ? `, ${facets}` : ''}
      from task_search_keys k join tasks t on t.id = k.task_id
      where k.task_id = ${taskId};`;
}

/**
 * The insert, delete and update triggers of a table holding a task's text (`column`, by
 * `task_id`): checklist items and comments.
 */
function textTriggers(
  name: string,
  table: string,
  column: string,
  write: (taskId: string) => string,
): string[] {
  return [
    `create trigger task_search_after_${name}_insert after insert on ${table} begin
      ${write('new.task_id')}
    end`,
    `create trigger task_search_after_${name}_delete after delete on ${table} begin
      ${write('old.task_id')}
    end`,
    `create trigger task_search_after_${name}_update after update of ${column}, task_id on ${table}
      when old.${column} is not new.${column} or old.task_id is not new.task_id begin
      ${write('old.task_id')}
      ${write('new.task_id')}
    end`,
  ];
}

/** Every trigger that writes the index (migrations 202, 401, 601), each row with `facets`. */
function triggers(facets: string | null): string[] {
  const write = (taskId: string) => refresh(taskId, facets);
  const taskColumns = facets ? 'title, description, priority' : 'title, description';
  const taskChanged = facets
    ? 'old.title is not new.title or old.description is not new.description or old.priority is not new.priority'
    : 'old.title is not new.title or old.description is not new.description';
  return [
    `create trigger task_search_after_task_insert after insert on tasks begin
      insert into task_search_keys (search_id, task_id) values (${NEXT_ID('new.created_at')}, new.id);
      ${write('new.id')}
    end`,
    `create trigger task_search_after_task_update after update of ${taskColumns} on tasks
      when ${taskChanged} begin
      ${write('new.id')}
    end`,
    `create trigger task_search_order_after_created_at_update
      after update of created_at on tasks
      when old.created_at is not new.created_at begin
        delete from task_search
          where rowid = (select search_id from task_search_keys where task_id = new.id);
        update task_search_keys set search_id = ${NEXT_ID('new.created_at')}
          where task_id = new.id;
        ${write('new.id')}
    end`,
    ...textTriggers('item', 'todo_items', 'text', write),
    ...textTriggers('comment', 'comments', 'body', write),
  ];
}

const TRIGGERS = [
  'task_search_after_task_insert',
  'task_search_after_task_update',
  'task_search_order_after_created_at_update',
  'task_search_after_item_insert',
  'task_search_after_item_delete',
  'task_search_after_item_update',
  'task_search_after_comment_insert',
  'task_search_after_comment_delete',
  'task_search_after_comment_update',
];

/** Makes the index anew with `columns`, its triggers writing `facets`, and fills it. */
async function rebuild(db: Kysely<any>, columns: string, facets: string | null) {
  for (const trigger of TRIGGERS) {
    await sql`drop trigger if exists ${sql.raw(trigger)}`.execute(db);
  }
  await sql`drop table task_search`.execute(db);
  await sql
    .raw(
      `create virtual table task_search using fts5(
        ${columns}, content = '', contentless_delete = 1, ${TOKENIZE})`,
    )
    .execute(db);
  for (const statement of triggers(facets)) await sql.raw(statement).execute(db);
  await sql
    .raw(
      `insert into task_search (rowid, document${facets ? ', facets' : ''})
        select k.search_id, ${SQLITE_DOCUMENT}${facets ? `, ${facets}` : ''}
        from task_search_keys k join tasks t on t.id = k.task_id
        order by k.search_id`,
    )
    .execute(db);
  // Filled in one statement, the index is still several b-trees: one reads faster.
  await sql`insert into task_search (task_search) values ('optimize')`.execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await rebuild(db, 'document, facets', FACETS);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await rebuild(db, 'document', null);
}
