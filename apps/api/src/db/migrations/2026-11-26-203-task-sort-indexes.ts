import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never import application code.
//
// The task list's sorts (issue 22), each read in order from an index and paged by keyset: the
// sort key, then the id to break ties. Priority sorts by rank (High 3, Medium 2, Low 1: the
// names would sort alphabetically), then newest first; title without regard to case. The
// expressions must stay exactly as apps/api/src/tasks/repository.ts writes them, or the engines
// no longer match them to these indexes.
export async function up(db: Kysely<any>): Promise<void> {
  // The due-date index gains the id, which breaks ties in the order (it serves all it did).
  await db.schema.dropIndex('tasks_due_date_idx').ifExists().execute();
  await db.schema
    .createIndex('tasks_due_date_idx')
    .on('tasks')
    .columns(['due_date', 'id'])
    .execute();
  await db.schema
    .createIndex('tasks_updated_idx')
    .on('tasks')
    .columns(['updated_at', 'id'])
    .execute();
  await sql`create index tasks_title_idx on tasks (lower(title), id)`.execute(db);
  await sql`create index tasks_priority_rank_idx on tasks (
    (case priority when 'High' then 3 when 'Medium' then 2 else 1 end), created_at, id
  )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of [
    'tasks_priority_rank_idx',
    'tasks_title_idx',
    'tasks_updated_idx',
    'tasks_due_date_idx',
  ]) {
    await db.schema.dropIndex(index).ifExists().execute();
  }
  await db.schema.createIndex('tasks_due_date_idx').on('tasks').column('due_date').execute();
}
