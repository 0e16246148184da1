import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never import application code.
//
// SQLite: the newest-first index of tasks, (created_at, id), also holds each task's status,
// priority and due date. A broad filter's page (`due=overdue`, a priority, a status tab with
// either) walks this index newest first and stops after a page (repository.ts, listTaskPage):
// it checked each task it passed in `tasks` itself, about 560 random reads of whole task rows
// for a page of 100 overdue tasks at 100,000 tasks. Now the walk reads the index alone. The
// index still orders by (created_at, id) first, so everything that used it reads it as before.
//
// SQLite only, as 2026-11-27-403: PostgreSQL chooses its own plan from its statistics.
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`drop index tasks_created_idx`.execute(db);
  await sql`create index tasks_created_idx
    on tasks (created_at, id, status, priority, due_date)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`drop index tasks_created_idx`.execute(db);
  await sql`create index tasks_created_idx on tasks (created_at, id)`.execute(db);
}
