import { PostgresAdapter, type Kysely } from 'kysely';

// Frozen in time: this migration must never import application code.
//
// Working together on a task (issue 16):
// - task_activity: every change to a task, written in the transaction of the change. `seq`
//   orders the entries of one change (same `at`); `data` is JSON text. Deleting the task deletes
//   its history; deleting the actor keeps the entry with actor_id null.
// - comments: Markdown text, the mentioned user ids as a JSON array, edited_at once edited.
// - todo_items.created_by: who added an item (assignees may rename the items they added).
// - task_files and task_file_chunks: uploaded files, their bytes in chunks of at most 256 KB
//   (docs/decisions/006-task-files.md). `complete` is 0 while an upload is being written.
export async function up(db: Kysely<any>): Promise<void> {
  const bytes = db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob';

  await db.schema
    .createTable('task_activity')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('task_id', 'text', (col) => col.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('actor_id', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('data', 'text', (col) => col.notNull())
    .addColumn('at', 'text', (col) => col.notNull())
    .addColumn('seq', 'integer', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('task_activity_task_idx')
    .on('task_activity')
    .columns(['task_id', 'at', 'seq', 'id'])
    .execute();
  await db.schema
    .createIndex('task_activity_at_idx')
    .on('task_activity')
    .columns(['at', 'seq', 'id'])
    .execute();
  await db.schema
    .createIndex('task_activity_actor_idx')
    .on('task_activity')
    .column('actor_id')
    .execute();

  await db.schema
    .createTable('comments')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('task_id', 'text', (col) => col.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('author_id', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('body', 'text', (col) => col.notNull())
    .addColumn('mentions', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addColumn('edited_at', 'text')
    .execute();
  await db.schema
    .createIndex('comments_task_idx')
    .on('comments')
    .columns(['task_id', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('comments_author_idx').on('comments').column('author_id').execute();

  await db.schema
    .alterTable('todo_items')
    .addColumn('created_by', 'text', (col) => col.references('users.id').onDelete('set null'))
    .execute();

  await db.schema
    .createTable('task_files')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('task_id', 'text', (col) => col.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('content_type', 'text', (col) => col.notNull())
    .addColumn('size', 'integer', (col) => col.notNull())
    .addColumn('uploaded_by', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('complete', 'integer', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('task_files_task_idx')
    .on('task_files')
    .columns(['task_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('task_files_uploader_idx')
    .on('task_files')
    .column('uploaded_by')
    .execute();
  await db.schema
    .createTable('task_file_chunks')
    .addColumn('file_id', 'text', (col) =>
      col.notNull().references('task_files.id').onDelete('cascade'),
    )
    .addColumn('seq', 'integer', (col) => col.notNull())
    .addColumn('data', bytes, (col) => col.notNull())
    .addPrimaryKeyConstraint('task_file_chunks_pkey', ['file_id', 'seq'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('task_file_chunks').execute();
  await db.schema.dropTable('task_files').execute();
  await db.schema.alterTable('todo_items').dropColumn('created_by').execute();
  await db.schema.dropTable('comments').execute();
  await db.schema.dropTable('task_activity').execute();
}
