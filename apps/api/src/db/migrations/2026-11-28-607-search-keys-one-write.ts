import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never import application code.
//
// SQLite: a new task's full-text key (task_search_keys) is written whole, in one INSERT, by the
// task's own insert trigger. Before, the key was inserted with its id alone and three triggers
// on that insert filled it in three UPDATEs (status and creation time, 401; priority and due
// date, 402; title, 605): each UPDATE moved the row's entries in every index of the keys that
// holds what it changed, and since 606 three more indexes hold them all. Creating a task cost
// 0.25-0.5 ms more for it (100,000 tasks: 1.3-1.9 ms a task, 1.04 written whole). The keys'
// triggers on `tasks` updates are unchanged. SQLite only, as the keys themselves.

/** The next free full-text row id in `createdAt`'s second (migration 601). */
const NEXT_ID = (createdAt: string) => `coalesce(
    (select max(search_id) + 1 from task_search_keys
      where search_id >= (coalesce(cast(strftime('%s', ${createdAt}) as integer), 0) << 24)
        and search_id < (coalesce(cast(strftime('%s', ${createdAt}) as integer), 0) << 24) + 16777216),
    (coalesce(cast(strftime('%s', ${createdAt}) as integer), 0) << 24))`;

/** The task's full-text row, with its priority facet, as migration 603 writes it. */
const WRITE_ROW = `
    delete from task_search
      where rowid = (select search_id from task_search_keys where task_id = new.id);
    insert into task_search (rowid, document, facets)
      select k.search_id, t.title || ' ' || t.description
        || coalesce((select ' ' || group_concat(i.text, ' ') from todo_items i where i.task_id = t.id), '')
        || coalesce((select ' ' || group_concat(c.body, ' ') from comments c where c.task_id = t.id), ''),
        'zqp' || lower(t.priority)
      from task_search_keys k join tasks t on t.id = k.task_id
      where k.task_id = new.id;`;

/** The three triggers that filled a key in after its insert (migrations 401, 402, 605). */
const FILLERS: Array<[name: string, set: string]> = [
  [
    'task_search_keys_status_after_insert',
    `status = (select t.status from tasks t where t.id = new.task_id),
        created_at = (select t.created_at from tasks t where t.id = new.task_id)`,
  ],
  [
    'task_search_keys_filters_after_insert',
    `priority = (select t.priority from tasks t where t.id = new.task_id),
        due_date = (select t.due_date from tasks t where t.id = new.task_id)`,
  ],
  [
    'task_search_keys_title_after_insert',
    `title_key = (select lower(t.title) from tasks t where t.id = new.task_id)`,
  ],
];

async function defineTaskInsertTrigger(db: Kysely<any>, insertKey: string) {
  await sql`drop trigger if exists task_search_after_task_insert`.execute(db);
  await sql
    .raw(
      `create trigger task_search_after_task_insert after insert on tasks begin
        ${insertKey}
        ${WRITE_ROW}
      end`,
    )
    .execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  for (const [name] of FILLERS) await sql.raw(`drop trigger if exists ${name}`).execute(db);
  await defineTaskInsertTrigger(
    db,
    `insert into task_search_keys
        (search_id, task_id, status, created_at, priority, due_date, title_key)
        values (${NEXT_ID('new.created_at')}, new.id, new.status, new.created_at,
          new.priority, new.due_date, lower(new.title));`,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await defineTaskInsertTrigger(
    db,
    `insert into task_search_keys (search_id, task_id) values (${NEXT_ID('new.created_at')}, new.id);`,
  );
  for (const [name, set] of FILLERS) {
    await sql
      .raw(
        `create trigger ${name} after insert on task_search_keys begin
          update task_search_keys set ${set} where search_id = new.search_id;
        end`,
      )
      .execute(db);
  }
}
