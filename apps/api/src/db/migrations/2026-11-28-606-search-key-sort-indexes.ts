import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never import application code.
//
// SQLite: the full-text rows' keys (task_search_keys) in due-date, priority and title order,
// each index holding what a search's page checks on the way (the row id, the status, the due
// date, the creation time): a broad search's page in one of those orders then walks the keys in
// order and stops at its last task (tasks/search.ts, walkedMatchesPage), instead of reading
// every match's key and sorting them all (`review`, 6,666 matches in 100,000 tasks: 4.5 ms
// read and sorted, 1.3 ms walked). The priority index orders by the rank the list sorts by.
//
// SQLite only, as the keys themselves (2026-11-27-401): PostgreSQL's search joins the tasks.

const RANK = `(case priority when 'High' then 3 when 'Medium' then 2 else 1 end)`;

const INDEXES: Array<[name: string, columns: string]> = [
  ['task_search_keys_due_idx', 'due_date, task_id, search_id, status, created_at'],
  ['task_search_keys_title_idx', 'title_key, task_id, search_id, status, due_date, created_at'],
  ['task_search_keys_priority_idx', `${RANK}, created_at, task_id, search_id, status, due_date`],
];

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  for (const [name, columns] of INDEXES) {
    await sql.raw(`create index ${name} on task_search_keys (${columns})`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  for (const [name] of INDEXES) await sql.raw(`drop index if exists ${name}`).execute(db);
}
