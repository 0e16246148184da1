import type { Kysely } from 'kysely';
import type { UserWithTaskCounts } from '@task-manager/shared';
import type { Database } from '../db/tables.js';
import { listTaskRows, type TaskKey } from '../tasks/repository.js';
import { listMembersWithTaskCounts, type UserKey } from '../users/repository.js';

export interface TaskReportRow {
  id: string;
  title: string;
  description: string;
  priority: string;
  status: string;
  progress: number;
  dueDate: string;
  createdAt: string;
  assignedTo: string;
}

/** Rows read per query: memory stays flat however many rows the report has. */
export const REPORT_BATCH = 1000;

/**
 * Every task, newest first, a batch at a time through the task list's own keyset query, each
 * batch with its assignees in one more query.
 */
export async function* streamTaskReportRows(db: Kysely<Database>): AsyncGenerator<TaskReportRow> {
  let before: TaskKey | undefined;
  for (;;) {
    const tasks = await listTaskRows(db, {}, { limit: REPORT_BATCH, before });
    if (tasks.length === 0) return;
    const assignees = await db
      .selectFrom('task_assignees as ta')
      .innerJoin('users as u', 'u.id', 'ta.user_id')
      .select(['ta.task_id', 'u.name', 'u.email'])
      .where(
        'ta.task_id',
        'in',
        tasks.map((task) => task.id),
      )
      .orderBy('ta.task_id')
      .orderBy('ta.position')
      .execute();
    const names = new Map<string, string[]>();
    for (const a of assignees) {
      names.set(a.task_id, [...(names.get(a.task_id) ?? []), `${a.name} (${a.email})`]);
    }
    for (const task of tasks) {
      yield {
        id: task.id,
        title: task.title,
        description: task.description,
        priority: task.priority,
        status: task.status,
        progress: task.progress,
        dueDate: task.due_date,
        createdAt: task.created_at,
        assignedTo: (names.get(task.id) ?? []).join(', ') || 'Unassigned',
      };
    }
    if (tasks.length < REPORT_BATCH) return;
    const last = tasks[tasks.length - 1]!;
    before = [last.created_at, last.id];
  }
}

/** Every member by name with their task counts, a batch at a time (the user list's keyset). */
export async function* streamUserReportRows(
  db: Kysely<Database>,
): AsyncGenerator<UserWithTaskCounts> {
  let after: UserKey | undefined;
  for (;;) {
    const users = await listMembersWithTaskCounts(db, { limit: REPORT_BATCH, after });
    yield* users;
    if (users.length < REPORT_BATCH) return;
    const last = users[users.length - 1]!;
    after = [last.name, last._id];
  }
}
