import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never import application code.
export async function up(db: Kysely<any>): Promise<void> {
  const engine = detectEngine(db);
  // SQLite stores bytes as blob, PostgreSQL as bytea.
  const bytes = engine === 'postgres' ? 'bytea' : 'blob';

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('email', 'text', (col) => col.notNull().unique())
    .addColumn('password_hash', 'text', (col) => col.notNull())
    .addColumn('role', 'text', (col) => col.notNull().check(sql`role in ('admin', 'member')`))
    .addColumn('profile_image_url', 'text')
    .addColumn('token_version', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('users_role_idx')
    .on('users')
    .columns(['role', 'created_at'])
    .execute();

  await db.schema
    .createTable('tasks')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull())
    .addColumn('priority', 'text', (col) =>
      col.notNull().check(sql`priority in ('Low', 'Medium', 'High')`),
    )
    .addColumn('status', 'text', (col) =>
      col.notNull().check(sql`status in ('Pending', 'In Progress', 'Completed')`),
    )
    .addColumn('progress', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('completed_todo_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('due_date', 'text', (col) => col.notNull())
    .addColumn('created_by', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('tasks_created_idx')
    .on('tasks')
    .columns(['created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('tasks_status_created_idx')
    .on('tasks')
    .columns(['status', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('tasks_due_date_idx').on('tasks').column('due_date').execute();

  await db.schema
    .createTable('task_assignees')
    .addColumn('task_id', 'text', (col) => col.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('position', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('task_assignees_pk', ['task_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('task_assignees_user_idx')
    .on('task_assignees')
    .columns(['user_id', 'task_id'])
    .execute();

  await db.schema
    .createTable('todo_items')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('task_id', 'text', (col) => col.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('text', 'text', (col) => col.notNull())
    .addColumn('completed', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('todo_items_task_idx')
    .on('todo_items')
    .columns(['task_id', 'position'])
    .execute();

  await db.schema
    .createTable('attachments')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('task_id', 'text', (col) => col.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('url', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('attachments_task_idx')
    .on('attachments')
    .columns(['task_id', 'position'])
    .execute();

  await db.schema
    .createTable('images')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('content_type', 'text', (col) => col.notNull())
    .addColumn('data', sql.raw(bytes), (col) => col.notNull())
    .addColumn('byte_size', 'integer', (col) => col.notNull())
    .addColumn('width', 'integer', (col) => col.notNull())
    .addColumn('height', 'integer', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('app_settings')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('value', 'text', (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'app_settings',
    'images',
    'attachments',
    'todo_items',
    'task_assignees',
    'tasks',
    'users',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}

// Asks the adapter, not the server: a failing probe query would abort PostgreSQL's transaction.
function detectEngine(db: Kysely<any>): 'postgres' | 'sqlite' {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
