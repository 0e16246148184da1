import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never import application code.
//
// SQLite: each full-text row's id (task_search_keys.search_id, the FTS5 rowid) follows its
// task's creation time. FTS5 hands its matches over in rowid order, and can start from the
// highest: a search's newest-first page (the list's default order) then reads its first matches
// and stops, instead of reading every match's key and sorting them all (`budget`, 5,095
// matches: 1.8 ms -> 0.1 ms on 100,000 tasks).
//
// The rule, which tasks/search.ts relies on: a row's id is at least its creation second
// shifted left by 24 bits (ORDER_FLOOR), so that every task created at or after an instant has
// an id at or above that instant's floor. Ids are handed out from the floor up, one more than
// the highest id already in that second (16,777,216 a second before the next second's ids).
// created_at is always an ISO 8601 instant written by the app (Date.toISOString()).

/** The smallest id a task created at `createdAt` may have. */
const ORDER_FLOOR = (createdAt: string) =>
  `(coalesce(cast(strftime('%s', ${createdAt}) as integer), 0) << 24)`;

/** The next free id in `createdAt`'s second. */
const NEXT_ID = (createdAt: string) => `coalesce(
    (select max(search_id) + 1 from task_search_keys
      where search_id >= ${ORDER_FLOOR(createdAt)}
        and search_id < ${ORDER_FLOOR(createdAt)} + 16777216),
    ${ORDER_FLOOR(createdAt)})`;

/** The text each task has in the index, as migration 2026-11-26-401 defines it. */
const SQLITE_DOCUMENT = `t.title || ' ' || t.description
  || coalesce((select ' ' || group_concat(i.text, ' ') from todo_items i where i.task_id = t.id), '')
  || coalesce((select ' ' || group_concat(c.body, ' ') from comments c where c.task_id = t.id), '')`;

const indexTask = (taskId: string) => `
    insert into task_search (rowid, document)
      select k.search_id, ${SQLITE_DOCUMENT}
      from task_search_keys k join tasks t on t.id = k.task_id
      where k.task_id = ${taskId};`;

async function defineTaskInsertTrigger(db: Kysely<any>, keyValues: string) {
  await sql`drop trigger if exists task_search_after_task_insert`.execute(db);
  await sql
    .raw(
      `create trigger task_search_after_task_insert after insert on tasks begin
        insert into task_search_keys ${keyValues};
        delete from task_search
          where rowid = (select search_id from task_search_keys where task_id = new.id);
        ${indexTask('new.id')}
      end`,
    )
    .execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await defineTaskInsertTrigger(
    db,
    `(search_id, task_id) values (${NEXT_ID('new.created_at')}, new.id)`,
  );
  // A task whose creation time changes moves in the order: its row takes an id in the new
  // second (the other triggers follow the row by task id).
  await sql
    .raw(
      `create trigger task_search_order_after_created_at_update
        after update of created_at on tasks
        when old.created_at is not new.created_at begin
          delete from task_search
            where rowid = (select search_id from task_search_keys where task_id = new.id);
          update task_search_keys set search_id = ${NEXT_ID('new.created_at')}
            where task_id = new.id;
          ${indexTask('new.id')}
        end`,
    )
    .execute(db);

  // Every existing row takes its new id, and the index is filled again under those ids.
  await sql
    .raw(
      `create temp table search_order as
        select id as task_id, ${ORDER_FLOOR('created_at')}
          + row_number() over (partition by ${ORDER_FLOOR('created_at')} order by id) - 1 as search_id
        from tasks`,
    )
    .execute(db);
  await sql`insert into task_search (task_search) values ('delete-all')`.execute(db);
  // The index is empty: dropping the keys need not delete their rows from it one by one.
  await sql`drop trigger task_search_keys_after_delete`.execute(db);
  await sql`delete from task_search_keys`.execute(db);
  await sql`create trigger task_search_keys_after_delete after delete on task_search_keys begin
    delete from task_search where rowid = old.search_id;
  end`.execute(db);
  // The keys' own insert triggers fill each one's status, creation time, priority and due date.
  await sql`insert into task_search_keys (search_id, task_id)
    select search_id, task_id from temp.search_order`.execute(db);
  await sql`drop table temp.search_order`.execute(db);
  await sql
    .raw(
      `insert into task_search (rowid, document)
        select k.search_id, ${SQLITE_DOCUMENT}
        from task_search_keys k join tasks t on t.id = k.task_id`,
    )
    .execute(db);
  // Filled in one statement, the index is still several b-trees: one reads faster.
  await sql`insert into task_search (task_search) values ('optimize')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`drop trigger if exists task_search_order_after_created_at_update`.execute(db);
  // The ids stay as they are: the earlier triggers need them unique, nothing more.
  await defineTaskInsertTrigger(db, `(task_id) values (new.id)`);
}
