import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never import application code.
//
// SQLite: each task's JSON, as the API sends it (the whole task, and a card's part after its
// description), kept once written, so that a page of 100 tasks reads 100 stored texts instead
// of building each task from its rows again (issue 19: the statement that builds them was more
// than half of a task page's CPU).
//
// A stored text is only ever the database's own answer at the instant it was stored: the API
// stores what one INSERT ... SELECT builds, in the same statement (one writer at a time, so no
// write can fall between building and storing). TRIGGERS delete a task's texts in the
// transaction of any write to what they show: the task's row, its checklist items, assignees,
// links, labels and files; the name, colour and sort key of a label; the name, e-mail, photo and
// active flag of an assignee. Every writer (the API, seed:load, SQL by hand) is covered, and a
// foreign key's SET NULL or CASCADE fires them too. A task without a stored text is built as
// before (and stored then).
//
// Texts are stored when first read, so the table holds the tasks people open, not a second copy
// of every task. PostgreSQL builds every answer as before: a reader there sees a snapshot taken
// before its statement, so a text stored by one reader could be older than a write committed
// meanwhile.
const TASK_CHILDREN = ['todo_items', 'task_assignees', 'attachments', 'task_labels', 'task_files'];

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`create table task_documents (
    task_id text not null references tasks (id) on delete cascade,
    shape text not null,
    document text not null,
    primary key (task_id, shape)
  )`.execute(db);

  const forget = (taskId: string) =>
    sql.raw(`delete from task_documents where task_id = ${taskId};`);
  await sql`create trigger task_documents_after_task_update after update on tasks begin
      ${forget('new.id')}
    end`.execute(db);
  for (const table of TASK_CHILDREN) {
    await sql`create trigger ${sql.raw(`task_documents_after_${table}_insert`)}
      after insert on ${sql.table(table)} begin ${forget('new.task_id')} end`.execute(db);
    await sql`create trigger ${sql.raw(`task_documents_after_${table}_delete`)}
      after delete on ${sql.table(table)} begin ${forget('old.task_id')} end`.execute(db);
    await sql`create trigger ${sql.raw(`task_documents_after_${table}_update`)}
      after update on ${sql.table(table)} begin
        ${forget('old.task_id')} ${forget('new.task_id')}
      end`.execute(db);
  }
  await sql`create trigger task_documents_after_label_update
    after update of name, color, name_key on labels begin
      delete from task_documents
        where task_id in (select task_id from task_labels where label_id = new.id);
    end`.execute(db);
  await sql`create trigger task_documents_after_user_update
    after update of name, email, profile_image_url, active on users begin
      delete from task_documents
        where task_id in (select task_id from task_assignees where user_id = new.id);
    end`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  const triggers = [
    'task_documents_after_task_update',
    'task_documents_after_label_update',
    'task_documents_after_user_update',
    ...TASK_CHILDREN.flatMap((table) =>
      ['insert', 'delete', 'update'].map((op) => `task_documents_after_${table}_${op}`),
    ),
  ];
  for (const name of triggers) await sql`drop trigger if exists ${sql.raw(name)}`.execute(db);
  await sql`drop table if exists task_documents`.execute(db);
}
