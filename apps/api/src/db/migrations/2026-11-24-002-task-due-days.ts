import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never import application code.
//
// How many tasks of each status fall due on each (UTC) day, so that the admin's overdue count
// adds up past days' rows (a few hundred, however many tasks there are) and counts only the
// tasks due earlier today one by one, instead of reading every overdue task's index entry
// (docs/performance.md, "Overdue count"). The overdue count depends on the clock, so it cannot
// be one kept counter as `task_counts` is; per day it can.
//
// Days are the first ten characters of `due_date` ('YYYY-MM-DD'): every due date is fixed-width
// ISO-8601 UTC text (docs/decisions/002-timestamps-as-iso-text.md), on both engines alike.
//
// Kept exact by triggers on `tasks`, as `task_counts` is (2026-11-23-003): every writer stays
// exact, and the change commits or rolls back with the write. The triggers come before the
// fill, for the reason given there.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('task_due_days')
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('due_day', 'text', (col) => col.notNull())
    .addColumn('count', 'integer', (col) => col.notNull().check(sql`count >= 0`))
    .addPrimaryKeyConstraint('task_due_days_pkey', ['status', 'due_day'])
    .execute();

  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await createPostgresTriggers(db);
  } else {
    await createSqliteTriggers(db);
  }

  await sql`insert into task_due_days (status, due_day, count)
    select status, substr(due_date, 1, 10), count(*) from tasks
    group by status, substr(due_date, 1, 10)`.execute(db);
}

/** As for task_counts: an increment upserts, a decrement must find its row or fail the write. */
async function createSqliteTriggers(db: Kysely<any>): Promise<void> {
  const increment = sql`
    insert into task_due_days (status, due_day, count)
      values (new.status, substr(new.due_date, 1, 10), 1)
      on conflict (status, due_day) do update set count = count + 1;`;
  const decrement = sql`
    select raise(abort, 'task_due_days has no row for the old status and due day')
      where not exists (select 1 from task_due_days
        where status = old.status and due_day = substr(old.due_date, 1, 10));
    update task_due_days set count = count - 1
      where status = old.status and due_day = substr(old.due_date, 1, 10);`;
  await sql`create trigger task_due_days_after_insert after insert on tasks begin
    ${increment}
  end`.execute(db);
  await sql`create trigger task_due_days_after_delete after delete on tasks begin
    ${decrement}
  end`.execute(db);
  await sql`create trigger task_due_days_after_update after update of status, due_date on tasks
    when old.status <> new.status
      or substr(old.due_date, 1, 10) <> substr(new.due_date, 1, 10) begin
    ${decrement}
    ${increment}
  end`.execute(db);
}

/**
 * Row-level triggers, as for task_counts: a change that moves a task between two rows locks the
 * smaller (status, due_day) first, so two opposite moves wait for each other instead of
 * deadlocking. PostgreSQL fires a row's triggers in name order, so every writer takes its
 * task_counts rows before its task_due_days rows.
 */
async function createPostgresTriggers(db: Kysely<any>): Promise<void> {
  await sql`create function task_due_days_add(p_status text, p_day text, p_delta integer)
    returns void language plpgsql as $$
    begin
      if p_delta > 0 then
        insert into task_due_days (status, due_day, count) values (p_status, p_day, p_delta)
          on conflict (status, due_day) do update set count = task_due_days.count + p_delta;
      else
        update task_due_days set count = count + p_delta
          where status = p_status and due_day = p_day;
        if not found then
          raise exception 'task_due_days has no row for % / %', p_status, p_day;
        end if;
      end if;
    end $$`.execute(db);
  await sql`create function task_due_days_on_change() returns trigger language plpgsql as $$
    declare
      old_day text;
      new_day text;
    begin
      if tg_op = 'INSERT' then
        perform task_due_days_add(new.status, substr(new.due_date, 1, 10), 1);
      elsif tg_op = 'DELETE' then
        perform task_due_days_add(old.status, substr(old.due_date, 1, 10), -1);
      else
        old_day := substr(old.due_date, 1, 10);
        new_day := substr(new.due_date, 1, 10);
        if (old.status, old_day) is distinct from (new.status, new_day) then
          if (old.status, old_day) < (new.status, new_day) then
            perform task_due_days_add(old.status, old_day, -1);
            perform task_due_days_add(new.status, new_day, 1);
          else
            perform task_due_days_add(new.status, new_day, 1);
            perform task_due_days_add(old.status, old_day, -1);
          end if;
        end if;
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger task_due_days_after_insert_or_delete after insert or delete on tasks
    for each row execute function task_due_days_on_change()`.execute(db);
  await sql`create trigger task_due_days_after_update after update of status, due_date on tasks
    for each row execute function task_due_days_on_change()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop trigger if exists task_due_days_after_update on tasks`.execute(db);
    await sql`drop trigger if exists task_due_days_after_insert_or_delete on tasks`.execute(db);
    await sql`drop function if exists task_due_days_on_change()`.execute(db);
    await sql`drop function if exists task_due_days_add(text, text, integer)`.execute(db);
  } else {
    for (const trigger of ['after_update', 'after_delete', 'after_insert']) {
      await sql`drop trigger if exists ${sql.raw(`task_due_days_${trigger}`)}`.execute(db);
    }
  }
  await db.schema.dropTable('task_due_days').ifExists().execute();
}
