import type { Kysely } from 'kysely';

// Frozen in time: this migration must never import application code.
//
// Labels (issue 22): a team-wide list of { name, color }, and which tasks carry which. A name
// is unique whatever its case: `name_key` holds the name folded by the app (lower case, NFC),
// since SQLite's lower() folds ASCII only. Deleting a label or a task deletes its links.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('labels')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('name_key', 'text', (col) => col.notNull().unique())
    .addColumn('color', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('task_labels')
    .addColumn('task_id', 'text', (col) => col.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('label_id', 'text', (col) =>
      col.notNull().references('labels.id').onDelete('cascade'),
    )
    .addPrimaryKeyConstraint('task_labels_pkey', ['task_id', 'label_id'])
    .execute();
  // The label filter reads a label's tasks from here.
  await db.schema
    .createIndex('task_labels_label_idx')
    .on('task_labels')
    .columns(['label_id', 'task_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('task_labels').execute();
  await db.schema.dropTable('labels').execute();
}
