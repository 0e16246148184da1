import type { Kysely } from 'kysely';

// Frozen in time: this migration must never import application code.
//
// Indexes for the paged lists and the counts, so that each stays one or a few index reads at
// 100,000 tasks on SQLite and 1,000,000 on PostgreSQL (docs/performance.md, "Query plans").
// The task pages themselves already have theirs since the first migration: (created_at, id),
// read backwards for newest first, and (status, created_at, id) for a status tab.
export async function up(db: Kysely<any>): Promise<void> {
  // The team page: members by name, then id (the keyset), without sorting the users table.
  await db.schema
    .createIndex('users_role_name_idx')
    .on('users')
    .columns(['role', 'name', 'id'])
    .execute();
  // The status summary and the dashboards' charts count tasks by status and priority: read
  // from this small index alone, already in group order.
  await db.schema
    .createIndex('tasks_status_priority_idx')
    .on('tasks')
    .columns(['status', 'priority'])
    .execute();
  // Overdue count: one range of due dates within each open status, from the index alone.
  await db.schema
    .createIndex('tasks_status_due_idx')
    .on('tasks')
    .columns(['status', 'due_date'])
    .execute();
  // A page's assignees in the order they were given, from the index alone (no sort, no row).
  await db.schema
    .createIndex('task_assignees_task_position_idx')
    .on('task_assignees')
    .columns(['task_id', 'position', 'user_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of [
    'task_assignees_task_position_idx',
    'tasks_status_due_idx',
    'tasks_status_priority_idx',
    'users_role_name_idx',
  ]) {
    await db.schema.dropIndex(index).ifExists().execute();
  }
}
