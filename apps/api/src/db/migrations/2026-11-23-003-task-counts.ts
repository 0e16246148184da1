import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never import application code.
//
// The number of tasks per (status, priority), so that the admin's status summary and dashboard
// read at most nine rows instead of counting every task (docs/performance.md, "Query plans").
//
// Kept exact by TRIGGERS on `tasks` rather than by the service: every writer (the API,
// seed:load's bulk inserts and --force deletes, a restore, an admin's SQL by hand) stays exact
// without having to remember the counter, and the change commits or rolls back with the write.
// A count that would go below zero fails the write (CHECK) instead of drifting silently.
//
// The two engines differ in how a trigger is written (SQLite: statements in the trigger body;
// PostgreSQL: a plpgsql function), hence the branch. The triggers come before the initial fill:
// on PostgreSQL creating them locks `tasks` against writes until this migration commits, so no
// task written by a process still running the old version is missed or counted twice.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('task_counts')
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('priority', 'text', (col) => col.notNull())
    .addColumn('count', 'integer', (col) => col.notNull().check(sql`count >= 0`))
    .addPrimaryKeyConstraint('task_counts_pkey', ['status', 'priority'])
    .execute();

  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await createPostgresTriggers(db);
  } else {
    await createSqliteTriggers(db);
  }

  await sql`insert into task_counts (status, priority, count)
    select status, priority, count(*) from tasks group by status, priority`.execute(db);
}

/**
 * An increment creates a missing (status, priority) row (upsert). A decrement finds its row:
 * a missing one means the counts are wrong, and the write fails loudly rather than drift.
 */
async function createSqliteTriggers(db: Kysely<any>): Promise<void> {
  const increment = sql`
    insert into task_counts (status, priority, count) values (new.status, new.priority, 1)
      on conflict (status, priority) do update set count = count + 1;`;
  const decrement = sql`
    select raise(abort, 'task_counts has no row for the old status and priority')
      where not exists (
        select 1 from task_counts where status = old.status and priority = old.priority);
    update task_counts set count = count - 1
      where status = old.status and priority = old.priority;`;
  await sql`create trigger task_counts_after_insert after insert on tasks begin
    ${increment}
  end`.execute(db);
  await sql`create trigger task_counts_after_delete after delete on tasks begin
    ${decrement}
  end`.execute(db);
  // SQLite serialises writers with its database lock, so the order of the two steps is free.
  await sql`create trigger task_counts_after_update after update of status, priority on tasks
    when old.status <> new.status or old.priority <> new.priority begin
    ${decrement}
    ${increment}
  end`.execute(db);
}

/**
 * Row-level triggers: the counter rows stay locked by the writer's own transaction until it
 * commits. A status or priority change touches two rows; it always locks the smaller
 * (status, priority) first, so two transactions moving tasks in opposite directions wait for
 * each other instead of deadlocking.
 */
async function createPostgresTriggers(db: Kysely<any>): Promise<void> {
  await sql`create function task_counts_add(p_status text, p_priority text, p_delta integer)
    returns void language plpgsql as $$
    begin
      if p_delta > 0 then
        insert into task_counts (status, priority, count) values (p_status, p_priority, p_delta)
          on conflict (status, priority) do update set count = task_counts.count + p_delta;
      else
        update task_counts set count = count + p_delta
          where status = p_status and priority = p_priority;
        if not found then
          raise exception 'task_counts has no row for % / %', p_status, p_priority;
        end if;
      end if;
    end $$`.execute(db);
  await sql`create function task_counts_on_change() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        perform task_counts_add(new.status, new.priority, 1);
      elsif tg_op = 'DELETE' then
        perform task_counts_add(old.status, old.priority, -1);
      elsif (old.status, old.priority) is distinct from (new.status, new.priority) then
        if (old.status, old.priority) < (new.status, new.priority) then
          perform task_counts_add(old.status, old.priority, -1);
          perform task_counts_add(new.status, new.priority, 1);
        else
          perform task_counts_add(new.status, new.priority, 1);
          perform task_counts_add(old.status, old.priority, -1);
        end if;
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger task_counts_after_insert_or_delete after insert or delete on tasks
    for each row execute function task_counts_on_change()`.execute(db);
  await sql`create trigger task_counts_after_update after update of status, priority on tasks
    for each row execute function task_counts_on_change()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop trigger if exists task_counts_after_update on tasks`.execute(db);
    await sql`drop trigger if exists task_counts_after_insert_or_delete on tasks`.execute(db);
    await sql`drop function if exists task_counts_on_change()`.execute(db);
    await sql`drop function if exists task_counts_add(text, text, integer)`.execute(db);
  } else {
    for (const trigger of ['after_update', 'after_delete', 'after_insert']) {
      await sql`drop trigger if exists ${sql.raw(`task_counts_${trigger}`)}`.execute(db);
    }
  }
  await db.schema.dropTable('task_counts').ifExists().execute();
}
