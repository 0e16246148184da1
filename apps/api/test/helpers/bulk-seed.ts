import { randomUUID } from 'node:crypto';
import type { Insertable, Kysely } from 'kysely';
import type { TaskStatus } from '@task-manager/shared';
import type { Database } from '../../src/db/tables.js';

/**
 * Many rows straight into the tables, in one transaction and a few multi-row INSERTs: thousands
 * of tasks in well under a second on either engine, where the API would take minutes.
 */

/** Rows per INSERT: 150 × 11 task columns stays far below both engines' parameter limits. */
const CHUNK = 150;

async function insertChunked<T extends keyof Database>(
  db: Kysely<Database>,
  table: T,
  rows: Array<Insertable<Database[T]>>,
) {
  for (let start = 0; start < rows.length; start += CHUNK) {
    await db
      .insertInto(table)
      .values(rows.slice(start, start + CHUNK) as never)
      .execute();
  }
}

const STATUSES: TaskStatus[] = ['Pending', 'In Progress', 'Completed'];
const PRIORITIES = ['Low', 'Medium', 'High'] as const;

export interface SeededTask {
  id: string;
  createdAt: string;
  status: TaskStatus;
  assigneeIds: string[];
}

/**
 * `count` tasks, the i-th created `i` seconds before `newest` — or, with `sameTimeGroups`, in
 * groups that share one creation time, so that pages must break ties by id. Each has two
 * checklist items that agree with its status (Pending, In Progress, Completed in turn), one
 * attachment, and the assignees `assign(i)` picks. Every third task is overdue.
 */
export async function seedTasks(
  db: Kysely<Database>,
  options: {
    count: number;
    createdBy: string;
    assign: (index: number) => string[];
    newest?: Date;
    sameTimeGroups?: number;
  },
): Promise<SeededTask[]> {
  const newest = (options.newest ?? new Date(Date.now() - 86_400_000)).getTime();
  const group = options.sameTimeGroups ?? 1;
  const seeded: SeededTask[] = [];
  const tasks: Array<Insertable<Database['tasks']>> = [];
  const assignees: Array<Insertable<Database['task_assignees']>> = [];
  const items: Array<Insertable<Database['todo_items']>> = [];
  const attachments: Array<Insertable<Database['attachments']>> = [];
  for (let i = 0; i < options.count; i++) {
    const id = randomUUID();
    const createdAt = new Date(newest - Math.floor(i / group) * 1000).toISOString();
    const done = i % 3;
    const status = STATUSES[done]!;
    const due = newest + (i % 3 === 0 ? -7 : 7) * 86_400_000;
    tasks.push({
      id,
      title: `Bulk task ${i}`,
      description: `Seeded task number ${i}`,
      priority: PRIORITIES[i % 3]!,
      status,
      progress: [0, 50, 100][done]!,
      completed_todo_count: done,
      due_date: new Date(due).toISOString(),
      created_by: options.createdBy,
      created_at: createdAt,
      updated_at: createdAt,
    });
    const assigneeIds = options.assign(i);
    assigneeIds.forEach((userId, position) =>
      assignees.push({ task_id: id, user_id: userId, position }),
    );
    for (const position of [0, 1]) {
      items.push({
        id: randomUUID(),
        task_id: id,
        position,
        text: `Step ${position + 1}`,
        completed: position < done ? 1 : 0,
      });
    }
    attachments.push({
      id: randomUUID(),
      task_id: id,
      position: 0,
      url: `https://example.com/${i}`,
    });
    seeded.push({ id, createdAt, status, assigneeIds });
  }
  await db.transaction().execute(async (trx) => {
    await insertChunked(trx, 'tasks', tasks);
    await insertChunked(trx, 'task_assignees', assignees);
    await insertChunked(trx, 'todo_items', items);
    await insertChunked(trx, 'attachments', attachments);
  });
  return seeded;
}

/** `count` members named `${prefix} NNNN`, inserted directly (no password anyone can use). */
export async function seedMembers(
  db: Kysely<Database>,
  count: number,
  prefix = 'Member',
): Promise<Array<{ id: string; name: string; email: string }>> {
  const now = new Date().toISOString();
  const rows = Array.from({ length: count }, (_, i) => {
    const id = randomUUID();
    return {
      id,
      name: `${prefix} ${String(i).padStart(4, '0')}`,
      email: `${prefix.toLowerCase().replace(/\W+/g, '-')}-${i}-${id.slice(0, 8)}@example.com`,
      password_hash: 'not-a-bcrypt-hash',
      role: 'member' as const,
      profile_image_url: null,
      token_version: 0,
      created_at: now,
      updated_at: now,
    };
  });
  await db.transaction().execute((trx) => insertChunked(trx, 'users', rows));
  return rows.map(({ id, name, email }) => ({ id, name, email }));
}
