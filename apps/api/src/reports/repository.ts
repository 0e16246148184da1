import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.js';

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

const PAGE = 500;

/**
 * Every task, newest first, a page at a time (keyset pagination), so the report streams in
 * bounded memory however many tasks there are.
 */
export async function* streamTaskReportRows(db: Kysely<Database>): AsyncGenerator<TaskReportRow> {
  let after: { created_at: string; id: string } | undefined;
  for (;;) {
    let query = db
      .selectFrom('tasks')
      .select([
        'id',
        'title',
        'description',
        'priority',
        'status',
        'progress',
        'due_date',
        'created_at',
      ])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(PAGE);
    if (after) {
      const { created_at, id } = after;
      query = query.where((eb) =>
        eb.or([
          eb('created_at', '<', created_at),
          eb.and([eb('created_at', '=', created_at), eb('id', '<', id)]),
        ]),
      );
    }
    const tasks = await query.execute();
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
    const last = tasks[tasks.length - 1]!;
    after = { created_at: last.created_at, id: last.id };
    if (tasks.length < PAGE) return;
  }
}
