import { sql, type Kysely, type Selectable } from 'kysely';
import {
  TASK_STATUSES,
  type TaskPriority,
  type TaskSort,
  type TaskStatus,
} from '@task-manager/shared';
import { compiledOnce } from '../db/compiled-once.js';
import { isPostgres, supportsRowLocks } from '../db/database.js';
import type { Database, TasksTable } from '../db/tables.js';
import {
  countMatchesByStatus,
  countOverdueMatchesByStatus,
  countWordMatches,
  keptTitlePage,
  matchesPage,
  matchingTaskIds,
  sqliteMatchingRowIds,
  walkedMatchesPage,
  walksOnePriority,
} from './search.js';
import {
  earliestNextDue,
  OPEN_STATUSES,
  overdueCountsHold,
  priorityRanks,
  priorityRank,
  type DueWindow,
  type TaskPageKey,
} from './search-filters.js';
import { withKeptMatches } from './search-matches.js';
import { VersionedMemo } from './versioned-memo.js';
import { newRowId } from '../db/row-ids.js';

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
  const [row] =
    scope.assigneeId === undefined
      ? await anyTaskRow(db, id)
      : await assignedTaskRow(db, id, scope.assigneeId);
  return row;
}

// Nearly every request about one task reads its row: compiled once, for each scope's shape.
const anyTaskRow = compiledOnce((db: Kysely<Database>, id: string) =>
  allTasks(db).selectAll('tasks').where('tasks.id', '=', id),
);
const assignedTaskRow = compiledOnce((db: Kysely<Database>, id: string, assigneeId: string) =>
  scoped(db, { assigneeId }).selectAll('tasks').where('tasks.id', '=', id),
);

/** Locks the task row for the rest of the transaction on PostgreSQL (SQLite locks the file). */
export async function lockTaskRow(trx: Kysely<Database>, id: string) {
  const [row] = await lockedTaskRow(trx, id);
  return row;
}

// Every write to a task starts here: compiled once (the lock is each engine's own).
const lockedTaskRow = compiledOnce((trx: Kysely<Database>, id: string) => {
  const query = trx.selectFrom('tasks').selectAll().where('id', '=', id);
  return supportsRowLocks(trx) ? query.forUpdate() : query;
});

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

/**
 * The ids of the newest `limit` tasks of `scope` (the dashboards' recent tasks), newest first,
 * from an index alone: the admin's (created_at, id) of the tasks, a member's own assignments.
 */
export async function newestTaskIds(
  db: Kysely<Database>,
  scope: TaskScope,
  limit: number,
): Promise<string[]> {
  const rows =
    scope.assigneeId === undefined
      ? await db
          .selectFrom('tasks')
          .select('id')
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(limit)
          .execute()
      : await db
          .selectFrom('task_assignees')
          .select('task_id as id')
          .where('user_id', '=', scope.assigneeId)
          .orderBy('task_created_at', 'desc')
          .orderBy('task_id', 'desc')
          .limit(limit)
          .execute();
  return rows.map((row) => row.id);
}

export interface TaskCounts {
  total: number;
  byStatus: Record<TaskStatus, number>;
  byPriority: Record<TaskPriority, number>;
}

/** Every task's counts by status and priority (nine rows at most), as the triggers keep them. */
function everyTaskCountRows(db: Kysely<Database>) {
  return db.selectFrom('task_counts').select(['status', 'priority', 'count']).execute();
}

/**
 * True when `filter` narrows every task (an admin's scope) by its `part` (priorities, due window
 * or search words) and nothing else, the status tab aside.
 */
function narrowedOnlyBy(
  scope: TaskScope,
  filter: TaskFilter,
  part: 'priorities' | 'due' | 'words',
): boolean {
  return (
    scope.assigneeId === undefined &&
    narrowsBeyondStatus({ [part]: filter[part] }) &&
    !narrowsBeyondStatus({ ...filter, [part]: undefined })
  );
}

/**
 * Counts by status and by priority. The admin's (every task) come from `task_counts`, at most
 * nine rows kept exact by triggers; a member's from one grouped query over their own tasks.
 */
export async function countTasks(db: Kysely<Database>, scope: TaskScope): Promise<TaskCounts> {
  const rows =
    scope.assigneeId === undefined
      ? await everyTaskCountRows(db)
      : await scoped(db, scope)
          .select(['tasks.status', 'tasks.priority', (eb) => eb.fn.countAll<number>().as('count')])
          .groupBy(['tasks.status', 'tasks.priority'])
          .execute();
  return tallyCounts(rows);
}

/** The total and the counts by status and by priority of (status, priority, count) rows. */
function tallyCounts(
  rows: ReadonlyArray<{ status: TaskStatus; priority: TaskPriority; count: number | string }>,
): TaskCounts {
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

/**
 * A dashboard's figures: the counts by status and priority and the overdue count. The admin's
 * from the counters the triggers keep (countTasks, countOverdueTasks); a member's in one pass
 * over their own tasks, each counted once by status and priority and, when open and due before
 * `now`, as overdue. With the data version read before (`version`), they are remembered for it
 * (dashboardFigures) until the next open task falls due: without a write, that is
 * the only way the figures change.
 */
export async function countDashboardFigures(
  db: Kysely<Database>,
  scope: TaskScope,
  now: string,
  version?: number,
): Promise<{ counts: TaskCounts; overdue: number }> {
  const count = () =>
    scope.assigneeId === undefined
      ? countEveryTaskFigures(db, now)
      : countMemberFigures(db, scope, now);
  if (version === undefined) return count();
  const { counts, overdue } = await dashboardFigures.get(
    db,
    version,
    scope.assigneeId ?? '',
    count,
    ({ counted, nextDue }) => overdueCountsHold(counted, nextDue, now),
  );
  return { counts, overdue };
}

/** Dashboard figures, with when they were counted and when they next change without a write. */
interface DashboardFigures {
  counts: TaskCounts;
  overdue: number;
  nextDue: string | null;
  counted: string;
}

/** Dashboard figures per data version, by member id ('' for every task's). */
const dashboardFigures = new VersionedMemo<DashboardFigures>(1024);

/**
 * Every task's figures at `now` (the counters the triggers keep, and the overdue count), with the
 * earliest due date of the open tasks not yet overdue (`nextDue`): until then, and while nothing
 * is written, they stay the same.
 */
async function countEveryTaskFigures(db: Kysely<Database>, now: string): Promise<DashboardFigures> {
  const [counts, overdue, nextDue] = await Promise.all([
    countTasks(db, {}),
    countOverdueTasks(db, {}, now),
    nextOpenDue(db, {}, {}, now),
  ]);
  return { counts, overdue, nextDue, counted: now };
}

/**
 * A member's figures at `now`, with the earliest due date of their open tasks not yet overdue
 * (`nextDue`): until then, and while nothing is written, they stay the same.
 */
async function countMemberFigures(
  db: Kysely<Database>,
  scope: TaskScope,
  now: string,
): Promise<DashboardFigures> {
  const rows = await scoped(db, scope)
    .select((eb) => [
      'tasks.status',
      'tasks.priority',
      eb.fn.countAll<number>().as('count'),
      eb.fn
        .sum<number>(
          eb
            .case()
            .when(eb.and([eb('tasks.status', 'in', OPEN_STATUSES), eb('tasks.due_date', '<', now)]))
            .then(1)
            .else(0)
            .end(),
        )
        .as('overdue'),
      eb.fn
        .min<string | null>(
          eb
            .case()
            .when(
              eb.and([eb('tasks.status', 'in', OPEN_STATUSES), eb('tasks.due_date', '>=', now)]),
            )
            .then(eb.ref('tasks.due_date'))
            .end(),
        )
        .as('next_due'),
    ])
    .groupBy(['tasks.status', 'tasks.priority'])
    .execute();
  const counts = tallyCounts(rows);
  const overdue = rows.reduce((sum, row) => sum + Number(row.overdue), 0);
  return { counts, overdue, nextDue: earliestNextDue(rows), counted: now };
}

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

export async function insertTaskRow(db: Kysely<Database>, row: TaskRow): Promise<void> {
  await db.insertInto('tasks').values(row).execute();
}

/**
 * Writes what `patch` changes in the task whose stored row is `row` (read in the same
 * transaction). A column whose value stays is left out of the UPDATE: SQLite rewrites the entry
 * of every index that holds a column the UPDATE sets, whatever its value, and runs every trigger
 * `after update of` it. The status is in seven indexes: a checklist tick that left it as it was
 * wrote 12 pages to the log instead of 5 (docs/performance.md).
 */
export async function updateTaskRow(
  db: Kysely<Database>,
  row: TaskRow,
  patch: Partial<Omit<TaskRow, 'id' | 'created_at' | 'created_by'>>,
): Promise<void> {
  const changed = Object.fromEntries(
    Object.entries(patch).filter(
      ([column, value]) => value !== undefined && value !== row[column as keyof TaskRow],
    ),
  );
  if (Object.keys(changed).length === 0) return;
  await db.updateTable('tasks').set(changed).where('id', '=', row.id).execute();
}

export async function deleteTaskRow(db: Kysely<Database>, id: string): Promise<boolean> {
  const result = await db.deleteFrom('tasks').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The task an assignment is written for: its id, and its created_at that the row copies. */
type AssignedTask = Pick<TaskRow, 'id' | 'created_at'>;

export async function replaceAssignees(
  db: Kysely<Database>,
  task: AssignedTask,
  userIds: string[],
) {
  await db.deleteFrom('task_assignees').where('task_id', '=', task.id).execute();
  await insertAssignees(db, task, userIds);
}

/**
 * The assignees of a task that has none yet (one just inserted). The insert* functions below are
 * the replace* ones without their delete: on a new task there is nothing to delete, and each
 * delete of nothing still cost a statement's CPU on every creation (docs/performance.md).
 *
 * Each row is written with its task's created_at (the copy the member's list order reads,
 * migration 2026-11-24-003). Without it, SQLite's trigger corrected every row after its insert:
 * a second write of the row and its three indexes, with the update triggers of the table.
 */
export async function insertAssignees(db: Kysely<Database>, task: AssignedTask, userIds: string[]) {
  if (userIds.length === 0) return;
  await db
    .insertInto('task_assignees')
    .values(
      userIds.map((userId, position) => ({
        task_id: task.id,
        user_id: userId,
        position,
        task_created_at: task.created_at,
      })),
    )
    .execute();
}

// Read by every checklist write and status change: compiled once.
const checklistRows = compiledOnce((db: Kysely<Database>, taskId: string) =>
  db
    .selectFrom('todo_items')
    .select(['id', 'text', 'completed', 'created_by'])
    .where('task_id', '=', taskId)
    .orderBy('position'),
);

export async function loadChecklist(db: Kysely<Database>, taskId: string) {
  const rows = await checklistRows(db, taskId);
  return rows.map((row) => ({
    id: row.id,
    text: row.text,
    completed: row.completed === 1,
    createdBy: row.created_by,
  }));
}

export async function replaceChecklist(
  db: Kysely<Database>,
  taskId: string,
  items: ChecklistRowItem[],
) {
  await searchRowWrittenOnce(db, taskId, async () => {
    await db.deleteFrom('todo_items').where('task_id', '=', taskId).execute();
    await insertItemRows(db, taskId, items);
  });
}

/** The checklist of a task that has none yet (see insertAssignees). */
export async function insertChecklist(
  db: Kysely<Database>,
  taskId: string,
  items: ChecklistRowItem[],
) {
  if (items.length === 0) return;
  await searchRowWrittenOnce(db, taskId, () => insertItemRows(db, taskId, items));
}

type ChecklistRowItem = { id: string; text: string; completed: boolean; createdBy?: string | null };

async function insertItemRows(db: Kysely<Database>, taskId: string, items: ChecklistRowItem[]) {
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
        created_by: item.createdBy ?? null,
      })),
    )
    .execute();
}

/**
 * Runs `write` (changes to task `taskId`'s checklist, in transaction `trx`) with the task's
 * full-text row written once, after it. SQLite's item triggers run for each row: without this a
 * checklist of n items written whole writes the row n times, each with all the items so far
 * (migration 2026-11-29-613). PostgreSQL's run once per statement already.
 */
async function searchRowWrittenOnce(
  trx: Kysely<Database>,
  taskId: string,
  write: () => Promise<void>,
): Promise<void> {
  if (isPostgres(trx)) return write();
  // Outside a transaction a failed write would leave the task's row unwritten for good.
  if (!trx.isTransaction) throw new Error('searchRowWrittenOnce needs a transaction');
  await trx.insertInto('task_search_deferred').values({ task_id: taskId }).execute();
  await write();
  // Its delete trigger writes the row, with the checklist as it now is.
  await trx.deleteFrom('task_search_deferred').where('task_id', '=', taskId).execute();
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
  await insertAttachments(db, taskId, urls);
}

/** The links of a task that has none yet (see insertAssignees). */
export async function insertAttachments(db: Kysely<Database>, taskId: string, urls: string[]) {
  if (urls.length === 0) return;
  await db
    .insertInto('attachments')
    .values(urls.map((url, position) => ({ id: newRowId(), task_id: taskId, position, url })))
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

/**
 * The ids among `ids` a task may be assigned to: active users (admins too), and, when editing
 * task `keepOf`, the deactivated people it already has (an edit need not drop them).
 */
export async function replaceTaskLabels(db: Kysely<Database>, taskId: string, labelIds: string[]) {
  await db.deleteFrom('task_labels').where('task_id', '=', taskId).execute();
  await insertTaskLabels(db, taskId, labelIds);
}

/** The labels of a task that has none yet (see insertAssignees). */
export async function insertTaskLabels(db: Kysely<Database>, taskId: string, labelIds: string[]) {
  if (labelIds.length === 0) return;
  await db
    .insertInto('task_labels')
    .values(labelIds.map((labelId) => ({ task_id: taskId, label_id: labelId })))
    .execute();
}

/** The label ids of a task, for telling what an update changed. */
export async function taskLabelIds(db: Kysely<Database>, taskId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('task_labels')
    .select('label_id')
    .where('task_id', '=', taskId)
    .execute();
  return rows.map((row) => row.label_id);
}

export async function existingLabelIds(db: Kysely<Database>, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('labels').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((row) => row.id));
}

export async function existingUserIds(
  db: Kysely<Database>,
  ids: string[],
  keepOf?: string,
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('id', 'in', ids)
    .where((eb) =>
      keepOf === undefined
        ? eb('active', '=', 1)
        : eb.or([
            eb('active', '=', 1),
            eb.exists(
              eb
                .selectFrom('task_assignees as kept')
                .select('kept.user_id')
                .whereRef('kept.user_id', '=', 'users.id')
                .where('kept.task_id', '=', keepOf),
            ),
          ]),
    )
    .execute();
  return new Set(rows.map((row) => row.id));
}

/** The filters of the task list (issue 22), all optional; the scope (whose tasks) comes apart. */
export interface TaskFilter {
  status?: TaskStatus;
  /** Only tasks assigned to this user (for a member, the scope already says it). */
  assigneeId?: string;
  priorities?: TaskPriority[];
  /** Tasks carrying any of these labels. */
  labelIds?: string[];
  due?: DueWindow;
  /** Search words (tasks/search.ts): every one must match. */
  words?: string[];
}

/** True when `filter` narrows anything beyond the status. */
export function narrowsBeyondStatus(filter: TaskFilter): boolean {
  return (
    filter.assigneeId !== undefined ||
    (filter.priorities?.length ?? 0) > 0 ||
    (filter.labelIds?.length ?? 0) > 0 ||
    filter.due !== undefined ||
    (filter.words?.length ?? 0) > 0
  );
}

const PRIORITY_RANK = priorityRank('tasks.priority');
const TITLE_KEY = sql<string>`lower("tasks"."title")`;

/**
 * The tasks `scope` may see that match `filter` (all but the status), read from where the
 * filter is narrowest, which then drives the query (as `scoped` does, with a CROSS JOIN, so that
 * SQLite keeps it as the outer loop):
 * - a search: the full-text index's matches, each task then by primary key;
 * - an assignee (a member's scope, or an admin's filter): their assignments;
 * - labels: the tasks carrying them;
 * - else the tasks themselves, through whichever index the rest of the query reads best.
 * Returns the query and whether it walks a member's assignments (whose index holds the
 * creation order).
 */
function filteredTasks(
  db: Kysely<Database>,
  scope: TaskScope,
  filter: TaskFilter,
  walkSortIndex = false,
  matchesFirst = false,
) {
  const assigneeId = scope.assigneeId ?? filter.assigneeId;
  const labelIds = filter.labelIds?.length ? filter.labelIds : undefined;
  let query: TasksQuery;
  let viaAssignments = false;
  let labelsDone = false;
  let assigneeDone = false;
  if (filter.words?.length && walkSortIndex) {
    // SQLite (walksSortIndex): every task in the sort's order; the other filters below are
    // checked on the way, and the words last, by listTaskPage (searchedLast).
    query = allTasks(db);
  } else if (filter.words?.length) {
    const matches = matchingTaskIds(db, filter.words, {
      ...searchAlso(scope, filter),
      status: filter.status,
    });
    // PostgreSQL (readsMatchesFirst): a MATERIALIZED common table expression keeps the planner
    // from folding the matches into the outer query: they are read first, from the index,
    // whatever its estimate.
    const found = matchesFirst
      ? db
          .with(
            (cte) => cte('found').materialized(),
            () => matches,
          )
          .selectFrom('found')
      : db.selectFrom(matches.as('found'));
    query = found
      .crossJoin('tasks')
      .whereRef('tasks.id', '=', 'found.task_id') as unknown as TasksQuery;
  } else if (assigneeId !== undefined) {
    query = scoped(db, { assigneeId });
    viaAssignments = true;
    assigneeDone = true;
  } else if (labelIds) {
    const carrying = db
      .selectFrom('task_labels')
      .select('task_labels.task_id')
      .distinct()
      .where('task_labels.label_id', 'in', labelIds)
      .as('carrying');
    query = db
      .selectFrom(carrying)
      .crossJoin('tasks')
      .whereRef('tasks.id', '=', 'carrying.task_id') as unknown as TasksQuery;
    labelsDone = true;
  } else {
    query = allTasks(db);
  }
  if (assigneeId !== undefined && !assigneeDone) {
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('task_assignees as a')
          .select('a.task_id')
          .whereRef('a.task_id', '=', 'tasks.id')
          .where('a.user_id', '=', assigneeId),
      ),
    );
  }
  if (labelIds && !labelsDone) {
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('task_labels as l')
          .select('l.task_id')
          .whereRef('l.task_id', '=', 'tasks.id')
          .where('l.label_id', 'in', labelIds),
      ),
    );
  }
  // SQLite's unary plus leaves a value as it is but keeps its column's indexes out of the
  // plan: the query then walks the sort's index and checks these on the way (walksSortIndex).
  const column = (name: 'priority' | 'status' | 'due_date') =>
    walkSortIndex ? sql<string>`+${sql.ref(`tasks.${name}`)}` : sql.ref<string>(`tasks.${name}`);
  if (filter.priorities?.length) query = query.where(column('priority'), 'in', filter.priorities);
  const due = filter.due;
  if (due?.openOnly) query = query.where(column('status'), 'in', OPEN_STATUSES);
  if (due?.from !== undefined) query = query.where(column('due_date'), '>=', due.from);
  if (due?.before !== undefined) query = query.where(column('due_date'), '<', due.before);
  return { query, viaAssignments };
}

/**
 * Whether a page is found sooner by walking the sort's index and checking the filter on each
 * task on the way than by reading every match through the filter's own index and sorting them
 * (walkReadsFewer: when `matching² > limit × total`). For what the tasks' own columns filter
 * (priority, due date), and for a search's page in an order its keys do not hold (updatedAt),
 * each task's full-text row id checked against the matches' (`review`, 6,666 matches: 16 ms
 * read first, 2.2 ms walked). A search in an order its keys hold walks the keys instead
 * (keysWalk), and one in creation order reads the full-text index in its own order
 * (search.ts). An assignee or a label drives the query from its own list. SQLite only: it keeps
 * no statistics to weigh this (it read all 18,000 overdue tasks of 100,000 through the
 * (status, due_date) index and sorted them, 100 ms, where the walk takes 8); PostgreSQL's
 * planner weighs it from its own. Answers how many keys the walk may pass (Infinity: all), or
 * undefined for no walk.
 */
async function walksSortIndex(
  db: Kysely<Database>,
  scope: TaskScope,
  filter: TaskFilter,
  matching: number,
  page: { sort: TaskSort; limit: number },
  version: number,
): Promise<number | undefined> {
  if (isPostgres(db)) return undefined;
  const { sort, limit } = page;
  const drivenElsewhere =
    (scope.assigneeId ?? filter.assigneeId) !== undefined || (filter.labelIds?.length ?? 0) > 0;
  const narrowed =
    (filter.words?.length ?? 0) > 0 ||
    (filter.priorities?.length ?? 0) > 0 ||
    filter.due !== undefined;
  if (drivenElsewhere || !narrowed || matching === 0) return undefined;
  const counts = await countTasks(db, scope);
  const total = counts.total;
  if ((filter.words?.length ?? 0) > 0) {
    if (sort === 'createdAt') return undefined;
    if (sort !== 'updatedAt') {
      // A walk of one priority's keys passes that priority's tasks alone.
      const walked = walksOnePriority(sort, filter.priorities);
      const keys = walked ? counts.byPriority[walked] : total;
      return keysWalk(db, filter.words!, filter.priorities, matching, page, keys, version);
    }
    // A search's match read first costs a task row (about 5 µs on 100,000 tasks), a task
    // walked an index entry and, past the filters, a key (about 0.5 µs, more with the set of
    // matches to build): five walked for one read (`budget` in the Pending tab, 1,700
    // matches: 13 ms read first, 3.5 ms walked; `berlin onboarding`, 495, is read first).
    return walkReadsFewer(matching, limit, total, SEARCH_WALK_STEP) ? Infinity : undefined;
  }
  return walkReadsFewer(matching, limit, total) ? Infinity : undefined;
}

/**
 * SQLite: whether a search's page in due-date, priority or title order walks the keys in that
 * order (search.ts, walkedMatchesPage), and how many it may pass. Read first, each match the
 * words find costs its key (about 0.7 µs with the sort); walked, each costs a place in the set
 * of matches (0.15 µs), and each key passed 0.2 µs, about `limit × total / matching` of them.
 * The words' own matches (`read`: the status tab, the due window and the priorities but those
 * the full-text index narrows are checked on their keys) are counted once per data version when
 * `matching` alone does not decide it: `review` has 6,666, of which 1,199 are overdue (walked
 * 1.8 ms, read first 4.4). The walk passes at most KEY_WALK_CAP times the keys it expects to:
 * past that the matches lie together somewhere in the order (in title order, a word that
 * starts titles), and it gives way to reading them first (walkedMatchesPage).
 */
async function keysWalk(
  db: Kysely<Database>,
  words: string[],
  priorities: TaskPriority[] | undefined,
  matching: number,
  { limit }: { limit: number },
  total: number,
  version: number,
): Promise<number | undefined> {
  const worthIt = (read: number) => read * matching > limit * total * KEY_WALK_STEP;
  // Not even if the words matched every task: too few kept to find a page soon.
  if (!worthIt(total)) return undefined;
  if (
    !worthIt(matching) &&
    !worthIt(await countWordMatches(db, words, priorities ?? [], version))
  ) {
    return undefined;
  }
  return Math.ceil((KEY_WALK_CAP * limit * total) / matching);
}

/**
 * What a key walked costs against what a match saves walked rather than read first: 0.2 µs
 * against 0.7 - 0.15.
 */
const KEY_WALK_STEP = 0.4;
/** How many times the keys it expects to pass a keys walk may pass before it gives way. */
const KEY_WALK_CAP = 4;

/** What a search's walk pays for each task it passes, a match read first costing 1. */
const SEARCH_WALK_STEP = 0.2;

/**
 * Whether walking `total` tasks in the sort's order and checking each finds a page of `limit`
 * sooner than reading the `matching` ones and sorting them: with matches spread evenly, the
 * walk reads about `limit × total / matching` tasks, each costing `step` (a match read the
 * other way costing 1), the other way `matching`.
 */
function walkReadsFewer(matching: number, limit: number, total: number, step = 1): boolean {
  return matching * matching > limit * total * step;
}

/**
 * PostgreSQL: whether an admin's search reads its matches first and sorts them, rather than
 * walking every task in the sort's order and checking each one's text. The planner estimates
 * a rare word's matches well, but not what checking a task's text costs: for `berlin
 * onboarding` (495 of 100,000 tasks) it walked 43,000 tasks and checked each (127 ms) where
 * the matches read first take 9. The same rule as walksSortIndex (walkReadsFewer): for a
 * common word (`budget`, 5,095) the walk is the better one (28 ms against 82), and the
 * planner's own choice is kept.
 */
async function readsMatchesFirst(
  db: Kysely<Database>,
  matching: number,
  limit: number,
): Promise<boolean> {
  return !walkReadsFewer(matching, limit, (await countTasks(db, {})).total);
}

/**
 * The task list's page (listTaskPage) and its status counts (countTasksByStatus) for `filter`
 * and the status tab `status`. On SQLite the counts come first: how many tasks match decides how
 * the page is read (walksSortIndex). PostgreSQL runs both at once, but for an admin's search,
 * whose counts decide how its page is read there too (readsMatchesFirst).
 */
export async function listTaskPageWithCounts(
  db: Kysely<Database>,
  scope: TaskScope,
  filter: TaskFilter,
  status: TaskStatus | undefined,
  page: { sort: TaskSort; order: 'asc' | 'desc'; limit: number; after?: TaskPageKey },
  /** The data version, when the caller read it before anything else (else read here). */
  dataVersion?: number,
): Promise<{
  rows: TaskPageRow[];
  counts: { total: number; byStatus: Record<TaskStatus, number> };
}> {
  const pageFilter = { ...filter, status };
  if (isPostgres(db)) {
    if (narrowedOnlyBy(scope, filter, 'words') && page.sort !== 'title') {
      // The counts first (remembered per data version): they decide how the page is read.
      const counts = await countFilteredTasks(db, scope, filter, dataVersion);
      const matchesFirst = await readsMatchesFirst(db, counts.total, page.limit);
      const rows = await listTaskPage(db, scope, pageFilter, { ...page, matchesFirst });
      return { rows, counts };
    }
    // A search in title order reads its matches first, however many: its words are often in
    // the titles, so walking the titles in order passes most tasks before the first match
    // (`q=review&sort=title`: 6 answers a second at 8 connections, p99 1.9 s, on 100,000 tasks).
    const matchesFirst = page.sort === 'title' && (filter.words?.length ?? 0) > 0;
    const [rows, counts] = await Promise.all([
      listTaskPage(db, scope, pageFilter, { ...page, matchesFirst }),
      countFilteredTasks(db, scope, filter, dataVersion),
    ]);
    return { rows, counts };
  }
  const version = dataVersion ?? (await readDataVersion(db));
  const counts = await countFilteredTasks(db, scope, filter, version);
  const matching = status ? counts.byStatus[status] : counts.total;
  const walkCap = await walksSortIndex(db, scope, filter, matching, page, version);
  const rows = await listTaskPage(db, scope, pageFilter, {
    ...page,
    walkSortIndex: walkCap !== undefined,
    walkCap,
    dataVersion: version,
  });
  return { rows, counts };
}

/** A task of a page: its id, and its page key, which the cursor carries. */
export interface TaskPageRow {
  id: string;
  pageKey: TaskPageKey;
}

/**
 * One page of the tasks `scope` may see matching `filter`, in `sort` order (ties broken by id,
 * in the same direction), after the task whose key is `after`: keyset pagination for every
 * sort, never OFFSET. Only the ids and page keys are read (the default order and a member's
 * page from their index alone): the tasks themselves are then written in one statement
 * (taskDocuments).
 */
export async function listTaskPage(
  db: Kysely<Database>,
  scope: TaskScope,
  filter: TaskFilter,
  page: {
    sort: TaskSort;
    order: 'asc' | 'desc';
    limit: number;
    after?: TaskPageKey;
    /** SQLite: read in the sort's order and check the filter on the way (walksSortIndex). */
    walkSortIndex?: boolean;
    /** SQLite: how many keys a search's walk may pass (walksSortIndex), and at which version. */
    walkCap?: number;
    dataVersion?: number;
    /** PostgreSQL: read a search's matches first, then sort them (readsMatchesFirst). */
    matchesFirst?: boolean;
  },
): Promise<TaskPageRow[]> {
  const searchPage = await searchPageOnKeys(db, scope, filter, page);
  if (searchPage) return searchPage;
  // A search walked in the sort's order checks each task against its matches, kept if asked before.
  if (page.walkSortIndex && filter.words?.length) {
    return withKeptMatches(db, filter.words, (kept) => sortedPage(db, scope, filter, page, kept));
  }
  return sortedPage(db, scope, filter, page, undefined);
}

/** listTaskPage's page read from the tasks, `kept` a walked search's kept matches if any. */
async function sortedPage(
  db: Kysely<Database>,
  scope: TaskScope,
  filter: TaskFilter,
  page: Parameters<typeof listTaskPage>[3],
  kept: string | undefined,
): Promise<TaskPageRow[]> {
  const { query: source, viaAssignments } = filteredTasks(
    db,
    scope,
    filter,
    page.walkSortIndex ?? false,
    page.matchesFirst ?? false,
  );
  let query = source;
  if (filter.status) {
    // Walking the sort's index, the status tab is checked on the way too (filteredTasks).
    const status = page.walkSortIndex
      ? sql<string>`+tasks.status`
      : sql.ref<string>('tasks.status');
    query = query.where(status, '=', filter.status);
  }
  if (page.walkSortIndex && filter.words?.length) {
    query = searchedLast(db, query, filter.words, kept);
  }
  if (page.sort === 'priority' && filter.priorities?.length) {
    // The asked priorities' ranks: ranges of the sort's index, not a walk past the others
    // (`priority=High&order=asc` walked every Low and Medium task first), read in its order.
    query = query.where(PRIORITY_RANK, 'in', priorityRanks(filter.priorities));
  }
  // The sort key's columns: a member's creation order from their assignments' index.
  const createdAt = sql.ref<string>(viaAssignments ? 'ta.task_created_at' : 'tasks.created_at');
  const id = sql.ref<string>(
    viaAssignments && page.sort === 'createdAt' ? 'ta.task_id' : 'tasks.id',
  );
  const keys = {
    createdAt: [createdAt],
    updatedAt: [sql.ref<string>('tasks.updated_at')],
    dueDate: [sql.ref<string>('tasks.due_date')],
    title: [TITLE_KEY],
    priority: [PRIORITY_RANK, sql.ref<string>('tasks.created_at')],
  }[page.sort];
  const columns = [...keys, id];
  if (page.after) {
    const comparison = page.order === 'asc' ? sql.raw('>') : sql.raw('<');
    // A row-value comparison: both engines read it as one range of the index.
    query = query.where(
      sql<boolean>`(${sql.join(columns)}) ${comparison} (${sql.join([...page.after])})`,
    );
  }
  for (const column of columns) query = query.orderBy(column, page.order);
  const rows = await query
    .select([
      sql<string>`${id}`.as('id'),
      sql<string | number>`${keys[0]}`.as('page_key_0'),
      sql<string>`${createdAt}`.as('created_at'),
    ])
    .limit(page.limit)
    .execute();
  return rows.map(({ id, page_key_0: first, created_at: createdAtKey }) => ({
    id,
    pageKey: page.sort === 'priority' ? [Number(first), createdAtKey, id] : [String(first), id],
  }));
}

/**
 * SQLite: a walk of the tasks in the sort's order (walksSortIndex) that keeps a search's
 * matches: each task's full-text row id (`tasks.search_id`, held by the updatedAt index,
 * migration 2026-11-28-608) checked against the matches read once into a list. Added after the
 * status and the other filters: SQLite checks a row's conditions in the order they are
 * written, and those cost less than a look into the list (`q=budget&status=Pending&sort=
 * updatedAt` on 100,000 tasks: 1.7 ms with the status first, 4.5 with the list first).
 */
function searchedLast(
  db: Kysely<Database>,
  query: TasksQuery,
  words: string[],
  kept: string | undefined,
): TasksQuery {
  return query.where(
    sql<number>`+tasks.search_id`,
    'in',
    sqliteMatchingRowIds(db, words, [], kept),
  );
}

/** A search: what the full-text rows' keys answer alone (search.ts), on SQLite. */
function searchOnKeys(filter: TaskFilter): filter is TaskFilter & { words: string[] } {
  return (filter.words?.length ?? 0) > 0;
}

/** What narrows a search besides its words and the status tab, as the keys are checked. */
function searchAlso(scope: TaskScope, filter: TaskFilter) {
  return {
    assigneeId: scope.assigneeId ?? filter.assigneeId,
    labelIds: filter.labelIds,
    priorities: filter.priorities,
    due: filter.due,
  };
}

/**
 * SQLite: a search's page, whatever else narrows it, in creation, due-date, priority or title
 * order: its ids and keys picked from the full-text rows' keys alone, by walking them in the
 * sort's order when walksSortIndex says so (walkedMatchesPage, unless such a walk already gave
 * way at this data version), else by reading every match's key (matchesPage). Undefined when
 * another way applies (PostgreSQL, or the updatedAt sort: walksSortIndex).
 */
async function searchPageOnKeys(
  db: Kysely<Database>,
  scope: TaskScope,
  filter: TaskFilter,
  page: {
    sort: TaskSort;
    order: 'asc' | 'desc';
    limit: number;
    after?: TaskPageKey;
    walkCap?: number;
    dataVersion?: number;
  },
): Promise<TaskPageRow[] | undefined> {
  const { sort, walkCap, dataVersion, ...place } = page;
  if (!searchOnKeys(filter)) return undefined;
  if (sort === 'updatedAt') return undefined;
  const also = { ...searchAlso(scope, filter), status: filter.status };
  const checked = { priorities: also.priorities, due: also.due, status: also.status };
  // walksSortIndex walks no search narrowed by an assignee or labels.
  const walks = sort !== 'createdAt' && walkCap !== undefined && dataVersion !== undefined;
  const onKeysAlone = also.assigneeId === undefined && !also.labelIds?.length;
  const pageFrom = async (kept: string | undefined) => {
    // Its matches kept (asked before, no text changed since): their titles walked in order.
    if (kept && sort === 'title') return keptTitlePage(db, kept, checked, place);
    if (walks) {
      const walk = () =>
        walkedMatchesPage(db, filter.words, checked, { ...place, sort }, walkCap, kept);
      // Whether the walk fills its page, kept per data version: when it gives way (its matches
      // lie together past its cap), the next requests read their matches first at once.
      let walked: TaskPageRow[] | undefined;
      const key = JSON.stringify([filter.words, checked, sort, place.order]);
      const fills = await keyWalkFills.get(db, dataVersion, key, async () => {
        walked = await walk();
        return walked !== undefined;
      });
      if (fills) walked ??= await walk();
      if (walked) return walked;
    }
    return matchesPage(db, filter.words, also, { ...place, sort });
  };
  // One ask of the kept matches per page: a word set is kept the second time a page asks.
  return onKeysAlone && (walks || sort === 'title')
    ? withKeptMatches(db, filter.words, pageFrom)
    : pageFrom(undefined);
}

/** Whether a search's keys walk filled its page (searchPageOnKeys), per data version. */
const keyWalkFills = new VersionedMemo<boolean>(256);

/**
 * Counts by status of the tasks `scope` may see that match `filter` but its status: the tabs
 * count what their lists show. Without a filter, the scope's counts (countTasks).
 */
export async function countTasksByStatus(
  db: Kysely<Database>,
  scope: TaskScope,
  filter: TaskFilter,
): Promise<{ total: number; byStatus: Record<TaskStatus, number> }> {
  if (!narrowsBeyondStatus(filter)) return countTasks(db, scope);
  if (narrowedOnlyBy(scope, filter, 'priorities')) {
    // Every task's: the (status, priority) counts the triggers keep, the asked priorities' rows.
    const rows = await everyTaskCountRows(db);
    return tallied(rows.filter(({ priority }) => filter.priorities?.includes(priority)));
  }
  if (narrowedOnlyBy(scope, filter, 'due')) return tallied(await countDueWindow(db, filter.due!));
  if (searchOnKeys(filter)) {
    // Counted in the full-text index and its keys.
    const counted = await countMatchesByStatus(db, filter.words, searchAlso(scope, filter));
    if (counted) return tallied(counted);
  }
  const rows = await filteredTasks(db, scope, filter)
    .query.select(['tasks.status', (eb) => eb.fn.countAll<number>().as('count')])
    .groupBy('tasks.status')
    .execute();
  return tallied(rows);
}

/**
 * Every task's counts by status in the due window `due` (overdue, today, this week, later):
 * the whole UTC days inside it added up from `task_due_days` (a row per status and day, kept by
 * triggers, as for countOverdueTasks), and only the tasks due in the part-days at either end
 * counted one by one, from the (status, due_date) index. One statement, so every part sees the
 * same data. `overdue` ends at this instant, so it can never be remembered (countFilteredTasks):
 * before, it counted every overdue task's index entry on every request (18,000 at 100,000 tasks).
 * Due dates are ISO instants, so 'YYYY-MM-DD' sorts before every due date of that day.
 */
async function countDueWindow(db: Kysely<Database>, due: DueWindow) {
  const statuses = due.openOnly ? OPEN_STATUSES : [...TASK_STATUSES];
  const dayAfter = (day: string) =>
    new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);
  // The first whole day starts at or after `from`; every day before `before`'s own day ends by it.
  const firstDay =
    due.from === undefined
      ? undefined
      : due.from.slice(10) === 'T00:00:00.000Z'
        ? due.from.slice(0, 10)
        : dayAfter(due.from.slice(0, 10));
  const endDay = due.before?.slice(0, 10);
  const dueIn = (from: string | undefined, before: string | undefined) =>
    db
      .selectFrom('tasks')
      .select(['tasks.status', (eb) => eb.fn.countAll<number>().as('count')])
      .where('tasks.status', 'in', statuses)
      .$if(from !== undefined, (q) => q.where('tasks.due_date', '>=', from!))
      .$if(before !== undefined, (q) => q.where('tasks.due_date', '<', before!))
      .groupBy('tasks.status');
  if (firstDay !== undefined && endDay !== undefined && firstDay >= endDay) {
    return dueIn(due.from, due.before).execute();
  }
  let query = db
    .selectFrom('task_due_days')
    .select(['status', (eb) => eb.fn.sum<number>('count').as('count')])
    .where('status', 'in', statuses)
    .$if(firstDay !== undefined, (q) => q.where('due_day', '>=', firstDay!))
    .$if(endDay !== undefined, (q) => q.where('due_day', '<', endDay!))
    .groupBy('status');
  if (due.from !== undefined) query = query.unionAll(dueIn(due.from, firstDay));
  if (due.before !== undefined) query = query.unionAll(dueIn(endDay, due.before));
  return query.execute();
}

/**
 * The counts of a filtered list, each (scope, filter) counted once per data version: every page
 * of a search or filter, and every refetch while nothing changed, shows the same counts, which
 * cost more than the page itself for a broad filter (all of its matches are counted). An
 * admin's list without a filter has counts the triggers keep: remembered too, which spares a
 * statement per page.
 */
const filteredCounts = new VersionedMemo<{ total: number; byStatus: Record<TaskStatus, number> }>(
  256,
);
async function countFilteredTasks(
  db: Kysely<Database>,
  scope: TaskScope,
  filter: TaskFilter,
  dataVersion: number | undefined,
) {
  // Every task's counts are the triggers' (task_counts): read as they are when the caller has
  // not read the version (one statement either way), else remembered like the rest. A member's
  // are counted from their assignments (0.6 ms for 250 tasks), and remembered like a filter's.
  const everyTask = !narrowsBeyondStatus(filter) && scope.assigneeId === undefined;
  if (everyTask && dataVersion === undefined) return countTasksByStatus(db, scope, filter);
  const version = dataVersion ?? (await readDataVersion(db));
  if (filter.due?.openOnly && filter.due.before !== undefined) {
    return countOverdueFiltered(db, scope, filter, filter.due.before, version);
  }
  const key = JSON.stringify([scope.assigneeId ?? null, { ...filter, status: undefined }]);
  return filteredCounts.get(db, version, key, () => countTasksByStatus(db, scope, filter));
}

/**
 * The counts of a list narrowed to overdue tasks (its due window ends at `before`: now, or an
 * earlier `dueBefore`). Overdue ends now, so they change as time passes, but only when one of
 * the matching tasks falls due: each count is kept with the instant it was counted at and the
 * earliest due date still ahead of it among the open tasks the rest of the filter keeps, and
 * answers a later request of the same data version until then. A request whose clock reads
 * earlier than the count's is counted afresh. (`priority=Low&due=overdue` counted its 6,000
 * overdue tasks on every request, 1.2 ms; a search over every task, `q=review&due=overdue`, read
 * its 6,666 matches' keys twice per request, for the counts and for the page.)
 */
const overdueCounts = new VersionedMemo<{
  counts: { total: number; byStatus: Record<TaskStatus, number> };
  before: string;
  nextDue: string | null;
}>(256);
async function countOverdueFiltered(
  db: Kysely<Database>,
  scope: TaskScope,
  filter: TaskFilter,
  before: string,
  version: number,
) {
  const key = JSON.stringify([
    scope.assigneeId ?? null,
    { ...filter, status: undefined, due: { ...filter.due, before: undefined } },
  ]);
  const kept = await overdueCounts.get(
    db,
    version,
    key,
    async () => ({ ...(await countOverdue(db, scope, filter, before)), before }),
    (counted) => overdueCountsHold(counted.before, counted.nextDue, before),
  );
  return kept.counts;
}

/**
 * An overdue list's counts by status, and the earliest due date at or after `before` of the
 * open tasks the rest of its filter keeps (when the counts next change without a write). On
 * SQLite a search counts both in one read of its matches' keys (countOverdueMatchesByStatus);
 * otherwise the counts are the list's own, and the next due date one more statement (the
 * smallest of an index range per open status: 0.01 ms for `priority=Low`).
 */
async function countOverdue(
  db: Kysely<Database>,
  scope: TaskScope,
  filter: TaskFilter,
  before: string,
) {
  if (searchOnKeys(filter)) {
    const counted = await countOverdueMatchesByStatus(
      db,
      filter.words,
      searchAlso(scope, filter),
      before,
    );
    if (counted) return { counts: tallied(counted.rows), nextDue: counted.nextDue };
  }
  const asked = filter.due?.from;
  const from = asked !== undefined && asked > before ? asked : before;
  const [counts, nextDue] = await Promise.all([
    countTasksByStatus(db, scope, filter),
    nextOpenDue(db, scope, filter, from),
  ]);
  return { counts, nextDue };
}

/**
 * The earliest due date at or after `from` of the open tasks of `scope` that `filter` keeps
 * (whatever its status tab and due window), or null.
 */
async function nextOpenDue(
  db: Kysely<Database>,
  scope: TaskScope,
  filter: TaskFilter,
  from: string,
): Promise<string | null> {
  // Per open status, each its own range of the (status, due_date) index: with both statuses
  // in one range PostgreSQL walked the due-date index past every finished task (3 ms at
  // 1,000,000 tasks, against 0.05).
  const firstDue = (status: TaskStatus) =>
    filteredTasks(db, scope, { ...filter, status, due: { openOnly: true, from } })
      .query.select((eb) => eb.fn.min<string>('tasks.due_date').as('due'))
      .as(status);
  const row = await db.selectNoFrom(OPEN_STATUSES.map(firstDue)).executeTakeFirstOrThrow();
  return earliestNextDue(
    Object.values(row as Record<string, string | null>).map((due) => ({ next_due: due })),
  );
}

/** The total and the counts by status of (status, count) rows. */
function tallied(
  rows: ReadonlyArray<{ status: TaskStatus | null; count: number | string | bigint }>,
): { total: number; byStatus: Record<TaskStatus, number> } {
  const byStatus: Record<TaskStatus, number> = { Pending: 0, 'In Progress': 0, Completed: 0 };
  let total = 0;
  for (const { status, count } of rows) {
    // Every full-text row has its task's status (migration 2026-11-27-401's triggers).
    if (status === null) continue;
    byStatus[status] += Number(count);
    total += Number(count);
  }
  return { total, byStatus };
}

/**
 * The data version (migration 2026-11-27-301): moved by triggers on every write to what task
 * answers show; the validator of their ETags (conditional.ts).
 */
export async function readDataVersion(db: Kysely<Database>): Promise<number> {
  const [row] = await dataVersion(db);
  return Number(row?.version ?? 0);
}

// Read by every list, task and dashboard answer: compiled once.
const dataVersion = compiledOnce((db: Kysely<Database>) =>
  db.selectFrom('data_version').select('version').where('id', '=', 1),
);
