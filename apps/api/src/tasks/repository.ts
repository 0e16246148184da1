import { sql, type Kysely, type Selectable } from 'kysely';
import type { Assignee, Task, TaskPriority, TaskStatus } from '@task-manager/shared';
import { supportsRowLocks } from '../db/database.js';
import type { Database, TasksTable } from '../db/tables.js';

export type TaskRow = Selectable<TasksTable>;

/** Who is asking: admins see every task, members only those assigned to them. */
export interface TaskScope {
  assigneeId?: string;
}

export interface TaskChildren {
  assigneeIds: string[];
  items: Array<{ text: string; completed: boolean }>;
  attachments: string[];
}

/**
 * The tasks `scope` may see. A member's are read from their assignments (the (user_id, ...)
 * index), each task then by primary key: a member's page or count costs their own tasks, never a
 * walk through everyone's. CROSS JOIN because SQLite keeps its left table as the outer loop (its
 * documented way to fix a join order, whatever its statistics say); PostgreSQL reads it as the
 * inner join it is. Only `tasks` columns are used on the result, hence the narrower type.
 */
function scoped(db: Kysely<Database>, scope: TaskScope): TasksQuery {
  if (scope.assigneeId === undefined) return allTasks(db);
  const query = db
    .selectFrom('task_assignees as ta')
    .crossJoin('tasks')
    .whereRef('tasks.id', '=', 'ta.task_id')
    .where('ta.user_id', '=', scope.assigneeId);
  return query as unknown as TasksQuery;
}

const allTasks = (db: Kysely<Database>) => db.selectFrom('tasks');
type TasksQuery = ReturnType<typeof allTasks>;

export async function findTaskRow(db: Kysely<Database>, id: string, scope: TaskScope = {}) {
  return scoped(db, scope).selectAll('tasks').where('tasks.id', '=', id).executeTakeFirst();
}

/** Locks the task row for the rest of the transaction on PostgreSQL (SQLite locks the file). */
export async function lockTaskRow(trx: Kysely<Database>, id: string) {
  let query = trx.selectFrom('tasks').selectAll().where('id', '=', id);
  if (supportsRowLocks(trx)) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** A task's place in the list order: its created_at and id (the keyset of every task page). */
export type TaskKey = readonly [createdAt: string, id: string];

/**
 * The columns a page is ordered by: the task's own, or for a member the copies in their
 * assignment, which the scoped query's type does not name (hence plain references).
 */
function keysetOf(scope: TaskScope) {
  const [createdAt, id] =
    scope.assigneeId === undefined
      ? ['tasks.created_at', 'tasks.id']
      : ['ta.task_created_at', 'ta.task_id'];
  return [sql.ref<string>(createdAt), sql.ref<string>(id)] as const;
}

/**
 * One page of tasks, newest first: those after `before` (keyset pagination, never OFFSET, so a
 * deep page costs what the first one does and new tasks do not shift older pages). A member's
 * page walks their assignments in the (user_id, task_created_at, task_id) index, which holds the
 * task's creation time: the page stops after `limit` tasks instead of sorting all of theirs.
 */
export async function listTaskRows(
  db: Kysely<Database>,
  scope: TaskScope,
  filter: { status?: TaskStatus; limit: number; before?: TaskKey },
): Promise<TaskRow[]> {
  const [createdAt, id] = keysetOf(scope);
  let query = scoped(db, scope).selectAll('tasks');
  if (filter.status) query = query.where('tasks.status', '=', filter.status);
  const before = filter.before;
  if (before) {
    // A row-value comparison: both engines read it as one range of the index.
    query = query.where(sql<boolean>`(${createdAt}, ${id}) < (${before[0]}, ${before[1]})`);
  }
  return query.orderBy(createdAt, 'desc').orderBy(id, 'desc').limit(filter.limit).execute();
}

export interface TaskCounts {
  total: number;
  byStatus: Record<TaskStatus, number>;
  byPriority: Record<TaskPriority, number>;
}

/**
 * Counts by status and by priority. The admin's (every task) come from `task_counts`, at most
 * nine rows kept exact by triggers; a member's from one grouped query over their own tasks.
 */
export async function countTasks(db: Kysely<Database>, scope: TaskScope): Promise<TaskCounts> {
  const rows =
    scope.assigneeId === undefined
      ? await db.selectFrom('task_counts').select(['status', 'priority', 'count']).execute()
      : await scoped(db, scope)
          .select(['tasks.status', 'tasks.priority', (eb) => eb.fn.countAll<number>().as('count')])
          .groupBy(['tasks.status', 'tasks.priority'])
          .execute();
  const counts: TaskCounts = {
    total: 0,
    byStatus: { Pending: 0, 'In Progress': 0, Completed: 0 },
    byPriority: { Low: 0, Medium: 0, High: 0 },
  };
  for (const row of rows) {
    counts.total += Number(row.count);
    counts.byStatus[row.status] += Number(row.count);
    counts.byPriority[row.priority] += Number(row.count);
  }
  return counts;
}

const OPEN_STATUSES: TaskStatus[] = ['Pending', 'In Progress'];

/**
 * Overdue: due before `now` and not completed. "Not completed" is spelled as the open statuses:
 * ranges of the (status, due_date) index. A member's are counted among their own tasks. The
 * admin's (every task) add up `task_due_days` for the days before today, a row per status and
 * day kept by triggers, and count only the tasks due earlier today: a cost bounded by the
 * calendar, not by the number of tasks. One statement, so both parts see the same data.
 */
export async function countOverdueTasks(
  db: Kysely<Database>,
  scope: TaskScope,
  now: string,
): Promise<number> {
  if (scope.assigneeId !== undefined) {
    const row = await scoped(db, scope)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('tasks.status', 'in', OPEN_STATUSES)
      .where('tasks.due_date', '<', now)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }
  // 'YYYY-MM-DD' sorts before every due date of that day (fixed-width ISO text).
  const today = now.slice(0, 10);
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('task_due_days')
        .select((sub) => sub.fn.sum<number>('count').as('count'))
        .where('status', 'in', OPEN_STATUSES)
        .where('due_day', '<', today)
        .as('before_today'),
      eb
        .selectFrom('tasks')
        .select((sub) => sub.fn.countAll<number>().as('count'))
        .where('status', 'in', OPEN_STATUSES)
        .where('due_date', '>=', today)
        .where('due_date', '<', now)
        .as('earlier_today'),
    ])
    .executeTakeFirstOrThrow();
  // sum() over no rows is null.
  return Number(row.before_today ?? 0) + Number(row.earlier_today ?? 0);
}

/**
 * Turns task rows into API tasks with three more queries whatever their number: assignees,
 * checklist items and attachments of all the tasks at once.
 */
export async function hydrateTasks(db: Kysely<Database>, rows: TaskRow[]): Promise<Task[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const [assignees, items, attachments] = await Promise.all([
    db
      .selectFrom('task_assignees as ta')
      .innerJoin('users as u', 'u.id', 'ta.user_id')
      .select(['ta.task_id', 'u.id', 'u.name', 'u.email', 'u.profile_image_url'])
      .where('ta.task_id', 'in', ids)
      .orderBy('ta.task_id')
      .orderBy('ta.position')
      .execute(),
    db
      .selectFrom('todo_items')
      .select(['task_id', 'id', 'text', 'completed'])
      .where('task_id', 'in', ids)
      .orderBy('task_id')
      .orderBy('position')
      .execute(),
    db
      .selectFrom('attachments')
      .select(['task_id', 'url'])
      .where('task_id', 'in', ids)
      .orderBy('task_id')
      .orderBy('position')
      .execute(),
  ]);
  const byTask = <T extends { task_id: string }, R>(list: T[], map: (item: T) => R) => {
    const grouped = new Map<string, R[]>();
    for (const item of list) {
      const group = grouped.get(item.task_id) ?? [];
      group.push(map(item));
      grouped.set(item.task_id, group);
    }
    return grouped;
  };
  const assigneesByTask = byTask(assignees, (a): Assignee => ({
    _id: a.id,
    name: a.name,
    email: a.email,
    profileImageUrl: a.profile_image_url,
  }));
  const itemsByTask = byTask(items, (i) => ({
    _id: i.id,
    text: i.text,
    completed: i.completed === 1,
  }));
  const linksByTask = byTask(attachments, (a) => a.url);
  return rows.map((row) => ({
    _id: row.id,
    title: row.title,
    description: row.description,
    priority: row.priority,
    status: row.status,
    progress: row.progress,
    dueDate: row.due_date,
    createdBy: row.created_by,
    assignedTo: assigneesByTask.get(row.id) ?? [],
    todoChecklist: itemsByTask.get(row.id) ?? [],
    attachments: linksByTask.get(row.id) ?? [],
    completedTodoCount: row.completed_todo_count,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }));
}

export async function insertTaskRow(db: Kysely<Database>, row: TaskRow): Promise<void> {
  await db.insertInto('tasks').values(row).execute();
}

export async function updateTaskRow(
  db: Kysely<Database>,
  id: string,
  patch: Partial<Omit<TaskRow, 'id' | 'created_at' | 'created_by'>>,
): Promise<void> {
  await db.updateTable('tasks').set(patch).where('id', '=', id).execute();
}

export async function deleteTaskRow(db: Kysely<Database>, id: string): Promise<boolean> {
  const result = await db.deleteFrom('tasks').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function replaceAssignees(db: Kysely<Database>, taskId: string, userIds: string[]) {
  await db.deleteFrom('task_assignees').where('task_id', '=', taskId).execute();
  if (userIds.length === 0) return;
  await db
    .insertInto('task_assignees')
    .values(userIds.map((userId, position) => ({ task_id: taskId, user_id: userId, position })))
    .execute();
}

export async function loadChecklist(db: Kysely<Database>, taskId: string) {
  const rows = await db
    .selectFrom('todo_items')
    .select(['id', 'text', 'completed'])
    .where('task_id', '=', taskId)
    .orderBy('position')
    .execute();
  return rows.map((row) => ({ id: row.id, text: row.text, completed: row.completed === 1 }));
}

export async function replaceChecklist(
  db: Kysely<Database>,
  taskId: string,
  items: Array<{ id: string; text: string; completed: boolean }>,
) {
  await db.deleteFrom('todo_items').where('task_id', '=', taskId).execute();
  if (items.length === 0) return;
  await db
    .insertInto('todo_items')
    .values(
      items.map((item, position) => ({
        id: item.id,
        task_id: taskId,
        position,
        text: item.text,
        completed: item.completed ? 1 : 0,
      })),
    )
    .execute();
}

/** Sets the completed flags of existing items by id (the list itself is unchanged). */
export async function setChecklistFlags(
  db: Kysely<Database>,
  taskId: string,
  flags: Array<{ id: string; completed: boolean }>,
) {
  for (const completed of [true, false]) {
    const ids = flags.filter((flag) => flag.completed === completed).map((flag) => flag.id);
    if (ids.length === 0) continue;
    await db
      .updateTable('todo_items')
      .set({ completed: completed ? 1 : 0 })
      .where('task_id', '=', taskId)
      .where('id', 'in', ids)
      .execute();
  }
}

export async function replaceAttachments(db: Kysely<Database>, taskId: string, urls: string[]) {
  await db.deleteFrom('attachments').where('task_id', '=', taskId).execute();
  if (urls.length === 0) return;
  await db
    .insertInto('attachments')
    .values(
      urls.map((url, position) => ({ id: crypto.randomUUID(), task_id: taskId, position, url })),
    )
    .execute();
}

/** Rows read per query by the exports: memory stays flat however many rows there are. */
export const EXPORT_BATCH = 1000;

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

/**
 * Every task, newest first, a batch at a time through the task list's own keyset query, each
 * batch with its assignees in one more query.
 */
export async function* streamTaskReportRows(db: Kysely<Database>): AsyncGenerator<TaskReportRow> {
  let before: TaskKey | undefined;
  for (;;) {
    const tasks = await listTaskRows(db, {}, { limit: EXPORT_BATCH, before });
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
    if (tasks.length < EXPORT_BATCH) return;
    const last = tasks[tasks.length - 1]!;
    before = [last.created_at, last.id];
  }
}

export async function existingUserIds(db: Kysely<Database>, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('users').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((row) => row.id));
}
