import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never import application code.
//
// A member's task page in the list order straight from an index: each assignment carries its
// task's creation time (`task_created_at`), and the index (user_id, task_created_at, task_id)
// holds one member's assignments newest first. Before, the member's page read all their
// assignments, fetched each task and sorted them (docs/performance.md, "Member task page").
// The new index starts with user_id, so it also serves everything the old (user_id, task_id)
// index did (a member's counts, the team page's counts), and that one goes.
//
// `task_created_at` is a copy of `tasks.created_at`, kept exact by triggers whoever writes: an
// assignment takes its task's time when inserted (whatever the writer gave), and a task whose
// creation time changes (a hand-written UPDATE; the API never does it) passes it on. Nullable
// only because SQLite cannot add a NOT NULL column without a default; the triggers never leave
// it null, since an assignment's task must exist (foreign key).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('task_assignees').addColumn('task_created_at', 'text').execute();

  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`create function task_assignees_take_created_at() returns trigger
      language plpgsql as $$
      begin
        select created_at into new.task_created_at from tasks where id = new.task_id;
        return new;
      end $$`.execute(db);
    await sql`create trigger task_assignees_before_write
      before insert or update of task_id, task_created_at on task_assignees
      for each row execute function task_assignees_take_created_at()`.execute(db);
    await sql`create function tasks_pass_created_at() returns trigger language plpgsql as $$
      begin
        update task_assignees set task_created_at = new.created_at where task_id = new.id;
        return null;
      end $$`.execute(db);
    await sql`create trigger tasks_after_update_created_at after update of created_at on tasks
      for each row when (old.created_at is distinct from new.created_at)
      execute function tasks_pass_created_at()`.execute(db);
  } else {
    // SQLite cannot change NEW in a BEFORE trigger: the row is corrected after it is written,
    // only when it is wrong (the bulk loader gives the right value and pays no second write).
    const fix = sql`
      update task_assignees
        set task_created_at = (select created_at from tasks where id = new.task_id)
        where task_id = new.task_id and user_id = new.user_id;`;
    const wrong = sql`new.task_created_at is not (select created_at from tasks where id = new.task_id)`;
    await sql`create trigger task_assignees_after_insert after insert on task_assignees
      when ${wrong} begin ${fix} end`.execute(db);
    await sql`create trigger task_assignees_after_update after update of task_id, task_created_at
      on task_assignees when ${wrong} begin ${fix} end`.execute(db);
    await sql`create trigger tasks_after_update_created_at after update of created_at on tasks
      when old.created_at is not new.created_at begin
        update task_assignees set task_created_at = new.created_at where task_id = new.id;
      end`.execute(db);
  }

  await sql`update task_assignees
    set task_created_at = (select created_at from tasks where tasks.id = task_assignees.task_id)`.execute(
    db,
  );

  await db.schema
    .createIndex('task_assignees_user_created_idx')
    .on('task_assignees')
    .columns(['user_id', 'task_created_at', 'task_id'])
    .execute();
  await db.schema.dropIndex('task_assignees_user_idx').ifExists().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('task_assignees_user_idx')
    .on('task_assignees')
    .columns(['user_id', 'task_id'])
    .execute();
  await db.schema.dropIndex('task_assignees_user_created_idx').ifExists().execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop trigger if exists tasks_after_update_created_at on tasks`.execute(db);
    await sql`drop trigger if exists task_assignees_before_write on task_assignees`.execute(db);
    await sql`drop function if exists tasks_pass_created_at()`.execute(db);
    await sql`drop function if exists task_assignees_take_created_at()`.execute(db);
  } else {
    for (const trigger of [
      'tasks_after_update_created_at',
      'task_assignees_after_update',
      'task_assignees_after_insert',
    ]) {
      await sql`drop trigger if exists ${sql.raw(trigger)}`.execute(db);
    }
  }
  await db.schema.alterTable('task_assignees').dropColumn('task_created_at').execute();
}
