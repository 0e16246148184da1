import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never import application code.
//
// SQLite: a write to a task forgets its stored texts (2026-11-27-501) by setting them to NULL
// instead of deleting their rows, and the text stored again afterwards fills the same row. A
// checklist tick deleted the task's two rows (the table's page and its primary key's) and
// inserted one at the table's end, another page: read back from the log, 4.2 pages a tick of its
// 31, now 1.0 (issue 19). A NULL text is no text: readers skip it (src/tasks/documents.ts).
//
// The table holds only what the API can build again, so it is made anew rather than copied: the
// texts are built again as tasks are read. PostgreSQL keeps its own way (2026-11-29-612).
const TASK_CHILDREN = ['todo_items', 'task_assignees', 'attachments', 'task_labels', 'task_files'];

const TRIGGERS = [
  'task_documents_after_task_update',
  'task_documents_after_label_update',
  'task_documents_after_user_update',
  ...TASK_CHILDREN.flatMap((table) =>
    ['insert', 'delete', 'update'].map((op) => `task_documents_after_${table}_${op}`),
  ),
];

/** The statements that forget the texts of the tasks `where` picks (rows whose text is kept). */
type Forget = (where: string) => string;

async function createTable(db: Kysely<any>, document: 'text' | 'text not null') {
  await sql`create table task_documents (
    task_id text not null references tasks (id) on delete cascade,
    shape text not null,
    document ${sql.raw(document)},
    primary key (task_id, shape)
  )`.execute(db);
}

async function createTriggers(db: Kysely<any>, forget: Forget) {
  const ofTask = (taskId: string) => forget(`task_id = ${taskId}`);
  await sql`create trigger task_documents_after_task_update after update on tasks begin
      ${sql.raw(ofTask('new.id'))}
    end`.execute(db);
  for (const table of TASK_CHILDREN) {
    await sql`create trigger ${sql.raw(`task_documents_after_${table}_insert`)}
      after insert on ${sql.table(table)} begin ${sql.raw(ofTask('new.task_id'))} end`.execute(db);
    await sql`create trigger ${sql.raw(`task_documents_after_${table}_delete`)}
      after delete on ${sql.table(table)} begin ${sql.raw(ofTask('old.task_id'))} end`.execute(db);
    await sql`create trigger ${sql.raw(`task_documents_after_${table}_update`)}
      after update on ${sql.table(table)} begin
        ${sql.raw(ofTask('old.task_id'))} ${sql.raw(ofTask('new.task_id'))}
      end`.execute(db);
  }
  await sql`create trigger task_documents_after_label_update
    after update of name, color, name_key on labels begin
      ${sql.raw(forget('task_id in (select task_id from task_labels where label_id = new.id)'))}
    end`.execute(db);
  await sql`create trigger task_documents_after_user_update
    after update of name, email, profile_image_url, active on users begin
      ${sql.raw(forget('task_id in (select task_id from task_assignees where user_id = new.id)'))}
    end`.execute(db);
}

async function remake(db: Kysely<any>, document: 'text' | 'text not null', forget: Forget) {
  for (const name of TRIGGERS) await sql`drop trigger if exists ${sql.raw(name)}`.execute(db);
  await sql`drop table if exists task_documents`.execute(db);
  await createTable(db, document);
  await createTriggers(db, forget);
}

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  // A text already forgotten is left alone: the second trigger of a write writes nothing.
  await remake(
    db,
    'text',
    (where) => `update task_documents set document = null where ${where} and document is not null;`,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await remake(db, 'text not null', (where) => `delete from task_documents where ${where};`);
}
