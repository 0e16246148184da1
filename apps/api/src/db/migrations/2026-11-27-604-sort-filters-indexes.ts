import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never import application code.
//
// SQLite: the indexes a filtered list walks or counts hold the columns its filters check, as
// tasks_created_idx does since 2026-11-27-602, so that neither reads a task row:
// - the updatedAt, title and priority sorts' indexes also hold each task's status, priority,
//   due date and creation time (the page key's tie-break; the priority index holds its rank,
//   not the priority a filter names): `priority=Low&due=overdue&
//   sort=updatedAt` walked 1,700 task rows for a page of 100 (1.7 ms), now only the index
//   (0.23 ms), on 100,000 tasks;
// - the (status, due_date) index holds the priority: a due window's count with a priority
//   (`due=overdue&priority=Low`, counted afresh each time, as overdue ends now) read 18,000
//   task rows (8.9 ms), now 18,000 index entries (0.86 ms).
// Each index still orders by its first columns, so everything that used it reads it as before.
//
// SQLite only, as 2026-11-27-602: PostgreSQL chooses its own plan from its statistics.

const RANK = `(case priority when 'High' then 3 when 'Medium' then 2 else 1 end)`;

const WIDENED: Array<[name: string, columns: string, before: string]> = [
  ['tasks_status_due_idx', 'status, due_date, priority', 'status, due_date'],
  ['tasks_updated_idx', 'updated_at, id, status, priority, due_date, created_at', 'updated_at, id'],
  [
    'tasks_title_idx',
    'lower(title), id, status, priority, due_date, created_at',
    'lower(title), id',
  ],
  [
    'tasks_priority_rank_idx',
    `${RANK}, created_at, id, status, priority, due_date`,
    `${RANK}, created_at, id`,
  ],
];

async function recreate(db: Kysely<any>, which: 'widened' | 'before') {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  for (const [name, widened, before] of WIDENED) {
    await sql`drop index ${sql.raw(name)}`.execute(db);
    await sql
      .raw(`create index ${name} on tasks (${which === 'widened' ? widened : before})`)
      .execute(db);
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  await recreate(db, 'widened');
}

export async function down(db: Kysely<any>): Promise<void> {
  await recreate(db, 'before');
}
