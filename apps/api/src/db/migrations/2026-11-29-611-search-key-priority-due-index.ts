import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never import application code.
//
// SQLite: the full-text rows' keys (task_search_keys) by priority, then due date, holding what
// a search's page checks on the way (as the indexes of 2026-11-28-606). A broad search narrowed
// to one priority and sorted by due date then walks that priority's keys alone, in due order,
// and stops at its last task (tasks/search.ts, walkedMatchesPage), where it read every match
// and sorted them (`review`, High, due later, in 100,000 tasks: 1,304 matches read and sorted,
// 1.4 ms; 1,747 keys walked, 0.4 ms).
//
// SQLite only, as the keys themselves (2026-11-27-401): PostgreSQL's search joins the tasks.

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`create index task_search_keys_priority_due_idx on task_search_keys
      (priority, due_date, task_id, search_id, status, created_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`drop index if exists task_search_keys_priority_due_idx`.execute(db);
}
