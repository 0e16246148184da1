import type { Kysely } from 'kysely';
import {
  apiMessages,
  changeStatus,
  checklistState as stateOfChecklist,
  checklistStateAfterWrite,
  mergeChecklist,
  type ChecklistState,
  type CreateTaskData,
  type DashboardResponse,
  type Task,
  type TaskListQuery,
  type TaskStatus,
  type TodoItemInput,
  type UpdateTaskData,
  validationMessages,
} from '@task-manager/shared';
import {
  creationChanges,
  recordActivity,
  type KnownTask,
  taskChanges,
  type StatusReason,
} from '../activity/service.js';
import type { Database } from '../db/tables.js';
import { supportsRowLocks } from '../db/database.js';
import { BadRequest, Forbidden, HttpError, NotFound } from '../errors.js';
import type { RequestUser } from '../http/request-user.js';
import {
  countDashboardFigures,
  deleteTaskRow,
  findTaskRow,
  insertTaskRow,
  existingLabelIds,
  listTaskPageWithCounts,
  newestTaskIds,
  loadChecklist,
  replaceTaskLabels,
  insertAssignees,
  insertAttachments,
  insertChecklist,
  insertTaskLabels,
  lockTaskRow,
  replaceAssignees,
  replaceAttachments,
  replaceChecklist,
  setChecklistFlags,
  updateTaskRow,
  type TaskRow,
  type TaskScope,
  existingUserIds,
  streamTaskReportRows,
  type TaskReportRow,
  readDataVersion,
} from './repository.js';
import { canEditTask, seesEveryTask, visibleScope } from './policy.js';
import {
  afterFlagsWrite,
  keepTaskDocument,
  newTaskDocument,
  taskCardDocuments,
  taskDocuments,
} from './documents.js';
import {
  JsonBody,
  jsonArray,
  jsonObject,
  jsonObjectBytes,
  toJsonText,
  type JsonText,
} from '../http/json-text.js';
import { searchWords } from './search.js';
import { versionETag } from './conditional.js';
import {
  DEFAULT_ORDER,
  decodePageCursor,
  dueRange,
  dueWindow,
  encodePageCursor,
} from './search-filters.js';
import { appendTaskDeleted } from '../events/task-events.js';
import { taskAssigneeIds } from '../events/log.js';
import { newRowId } from '../db/row-ids.js';

/** What the list reads: the query, its defaults not yet applied. */
type TaskListInput = Partial<TaskListQuery> & Pick<TaskListQuery, 'limit'>;

type StoredItem = { id: string; text: string; completed: boolean; createdBy?: string | null };

/**
 * The items of `task` (an answer read in the writing transaction) as stored, in order, without
 * who added each: what a write that only sets flags needs, with no second read of the items.
 */
const storedItemsOf = (task: Task): StoredItem[] =>
  task.todoChecklist.map(({ _id, text, completed }) => ({ id: _id, text, completed }));

/**
 * The next updated_at of a task: now, or a millisecond after the last one, so that every change
 * gives the task a new version (the ETag and If-Match compare it).
 */
function nextUpdatedAt(row: TaskRow): string {
  const now = Date.now();
  const last = Date.parse(row.updated_at);
  return new Date(Number.isNaN(last) || now > last ? now : last + 1).toISOString();
}

/** A task answer as the history and notifications of a change need it (recordActivity). */
const known = (task: Task): KnownTask => ({
  title: task.title,
  dueDate: task.dueDate,
  // Every assignee (deactivated ones too), as stored.
  assigneeIds: task.assignedTo.map((person) => person._id),
});

/** The version of a task as an ETag (its updatedAt, quoted): what PUT answers. */
export function taskETag(task: { updatedAt: string }): string {
  return `"${task.updatedAt}"`;
}

/**
 * The ETag of GET /api/tasks/:id: its updatedAt and the data version, which also moves when what
 * the task shows changes elsewhere (an assignee's name or photo, a label's name). If-Match reads
 * only the updatedAt part.
 */
export function taskReadETag(updatedAt: string, version: number): string {
  return `"${updatedAt}/${version}"`;
}

/** True when an If-Match header names the version `updatedAt` (or `*`). */
function matchesVersion(ifMatch: string, updatedAt: string): boolean {
  return ifMatch.split(',').some((tag) => {
    const value = tag
      .trim()
      .replace(/^W\//, '')
      .replace(/^"(.*)"$/, '$1')
      .replace(/\/\d+$/, '');
    if (value === '*' || value === updatedAt) return true;
    const asked = Date.parse(value);
    return !Number.isNaN(asked) && asked === Date.parse(updatedAt);
  });
}

/** 409: the task changed since the version the caller edited; carries the current task. */
export class TaskConflict extends HttpError {
  constructor(readonly task: Task) {
    super(409, apiMessages.taskEditConflict);
  }
}

/** What a checklist makes of its task (the shared rule), in the task row's columns. */
function stateColumns({ progress, status, completedTodoCount }: ChecklistState) {
  return { progress, status, completed_todo_count: completedTodoCount };
}

function checklistState(items: ReadonlyArray<{ completed: boolean }>) {
  return stateColumns(stateOfChecklist(items));
}

/** The same for a checklist write on an existing task: a started task stays started (007). */
function stateAfterWrite(row: TaskRow, items: ReadonlyArray<{ completed: boolean }>) {
  const previous = { status: row.status, completedTodoCount: row.completed_todo_count };
  return stateColumns(checklistStateAfterWrite(previous, items));
}

/**
 * The shared update rule (spec section 5); an item taken over (by its id, or else by its text)
 * keeps its id, a new one gets one.
 */
function mergeStoredChecklist(
  existing: ReadonlyArray<StoredItem>,
  incoming: ReadonlyArray<TodoItemInput>,
  actorId: string | null = null,
): StoredItem[] {
  return mergeChecklist(existing, incoming, (item) => item.id).map(
    ({ text, completed, previous }) => ({
      id: previous?.id ?? newRowId(),
      text,
      completed,
      createdBy: previous ? (previous.createdBy ?? null) : actorId,
    }),
  );
}

export class TaskService {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * One page of the caller's tasks matching the filters, in the asked order, after `cursor`.
   * The summary counts what the same filters show, whatever the status (so each tab's count is
   * the length of its list). A member sees their own tasks whatever they send: asking for
   * another member's gets an empty page. As JSON text, its tasks written by the database
   * (documents.ts), whole or with `view: 'card'` as cards (counts instead of the checklist):
   * what GET /api/tasks sends.
   */
  async listJson(user: RequestUser, input: TaskListInput, dataVersion?: number): Promise<JsonBody> {
    const { ids, statusSummary, nextCursor } = await this.page(user, input, dataVersion);
    const documents =
      input.view === 'card'
        ? await taskCardDocuments(this.db, ids)
        : await taskDocuments(this.db, ids);
    return new JsonBody(
      jsonObjectBytes([
        ['tasks', documents],
        ['statusSummary', toJsonText(statusSummary)],
        ['nextCursor', toJsonText(nextCursor)],
      ]),
    );
  }

  /**
   * A task list for a conditional GET: its ETag (the data version, the caller, `key` (path and
   * query), and the due window, which moves with the clock: today's ends at midnight, overdue's
   * every moment) is given to `fresh` first; when the caller has it, nothing more is read
   * (undefined). The version read here also keys the list's remembered counts.
   */
  async listUnlessFresh(
    user: RequestUser,
    input: TaskListInput,
    key: string,
    fresh: (etag: string) => boolean,
  ): Promise<JsonBody | undefined> {
    const version = await this.dataVersionOf(user);
    const window = input.due ? JSON.stringify(dueWindow(input.due, input.tz ?? 'UTC')) : '';
    if (fresh(versionETag(version, user, key, window))) return undefined;
    return this.listJson(user, input, version);
  }

  /** `dataVersion`: the data version, when the caller read it before anything else. */
  private async page(user: RequestUser, input: TaskListInput, dataVersion?: number) {
    const query = { sort: 'createdAt' as const, tz: 'UTC', ...input };
    const scope = visibleScope(user);
    const order = query.order ?? DEFAULT_ORDER[query.sort];
    const after = query.cursor ? decodePageCursor(query.cursor, query.sort, order) : undefined;
    const assigneeId = query.assignee === 'me' ? user.id : query.assignee;
    if (scope.assigneeId !== undefined && assigneeId !== undefined && assigneeId !== user.id) {
      return {
        ids: [],
        statusSummary: { all: 0, pendingTasks: 0, inProgressTasks: 0, completedTasks: 0 },
        nextCursor: null,
      };
    }
    if (query.label?.length) await this.assertLabelsExist(this.db, query.label, 'label');
    const filter = {
      assigneeId,
      priorities: query.priority,
      labelIds: query.label,
      due: dueRange(
        query.due ? dueWindow(query.due, query.tz) : undefined,
        query.dueFrom,
        query.dueBefore,
      ),
      words: query.q === undefined ? undefined : searchWords(query.q),
    };
    // One row more than asked tells whether a next page exists without counting.
    const {
      rows,
      counts: { total, byStatus },
    } = await listTaskPageWithCounts(
      this.db,
      scope,
      filter,
      query.status,
      { sort: query.sort, order, limit: query.limit + 1, after },
      dataVersion,
    );
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      ids: page.map((row) => row.id),
      statusSummary: {
        all: total,
        pendingTasks: byStatus.Pending,
        inProgressTasks: byStatus['In Progress'],
        completedTasks: byStatus.Completed,
      },
      nextCursor:
        rows.length > query.limit && last
          ? encodePageCursor(query.sort, order, last.pageKey)
          : null,
    };
  }

  /** A member who is not assigned gets the same 404 as for an unknown id. */
  async get(user: RequestUser, id: string): Promise<Task> {
    const row = await findTaskRow(this.db, id, visibleScope(user));
    if (!row) throw NotFound(apiMessages.taskNotFound);
    return this.hydrateOne(this.db, row);
  }

  /**
   * As `get`, for a conditional GET: `fresh` is asked with the task's ETag (taskReadETag) first,
   * and when it says the caller has that version, the task is not read further (undefined).
   */
  async getUnlessFresh(
    user: RequestUser,
    id: string,
    fresh: (etag: string) => boolean,
  ): Promise<JsonBody | undefined> {
    const version = await this.dataVersionOf(user);
    const row = await findTaskRow(this.db, id, visibleScope(user));
    if (!row) throw NotFound(apiMessages.taskNotFound);
    if (fresh(taskReadETag(row.updated_at, version))) return undefined;
    return new JsonBody(await this.documentOf(this.db, row.id));
  }

  async create(
    creatorId: string,
    data: Omit<CreateTaskData, 'labels'> & { labels?: string[] },
  ): Promise<Task> {
    return this.db.transaction().execute(async (trx) => {
      await this.assertUsersExist(trx, data.assignedTo);
      const labels = data.labels ?? [];
      await this.assertLabelsExist(trx, labels, 'labels');
      const items = data.todoChecklist.map((item) => ({
        id: newRowId(),
        text: item.text,
        completed: item.completed ?? false,
        createdBy: creatorId,
      }));
      const now = new Date().toISOString();
      const row: TaskRow = {
        id: newRowId(),
        title: data.title,
        description: data.description,
        priority: data.priority,
        due_date: data.dueDate,
        created_by: creatorId,
        created_at: now,
        updated_at: now,
        ...checklistState(items),
      };
      await insertTaskRow(trx, row);
      await insertAssignees(trx, row, data.assignedTo);
      await insertChecklist(trx, row.id, items);
      await insertAttachments(trx, row.id, data.attachments);
      await insertTaskLabels(trx, row.id, labels);
      const built = await newTaskDocument(trx, row.id);
      if (!built) throw NotFound(apiMessages.taskNotFound);
      const task = JSON.parse(built) as Task;
      await recordActivity(trx, row.id, creatorId, creationChanges(task), {
        at: now,
        task: known(task),
      });
      return task;
    });
  }

  /**
   * Edits a task. With `ifMatch` (the If-Match header: an ETag or updatedAt the caller read), a
   * task changed since then is refused with TaskConflict (409), carrying the current task.
   */
  async update(
    id: string,
    data: UpdateTaskData,
    options: { actorId?: string; ifMatch?: string } = {},
  ): Promise<Task> {
    return this.db.transaction().execute(async (trx) => {
      const row = await lockTaskRow(trx, id);
      if (!row) throw NotFound(apiMessages.taskNotFound);
      const before = await this.hydrateOne(trx, row);
      if (options.ifMatch !== undefined && !matchesVersion(options.ifMatch, row.updated_at)) {
        throw new TaskConflict(before);
      }
      const actorId = options.actorId ?? null;
      if (data.assignedTo) await this.assertUsersExist(trx, data.assignedTo, id);
      if (data.labels) await this.assertLabelsExist(trx, data.labels, 'labels');
      let patch: Partial<TaskRow> = {
        ...(data.title !== undefined && { title: data.title }),
        ...(data.description !== undefined && { description: data.description }),
        ...(data.priority !== undefined && { priority: data.priority }),
        ...(data.dueDate !== undefined && { due_date: data.dueDate }),
        updated_at: nextUpdatedAt(row),
      };
      if (data.todoChecklist) {
        const existing = await loadChecklist(trx, id);
        const items = mergeStoredChecklist(existing, data.todoChecklist, actorId);
        await replaceChecklist(trx, id, items);
        patch = { ...patch, ...stateAfterWrite(row, items) };
      }
      if (data.assignedTo) await replaceAssignees(trx, row, data.assignedTo);
      if (data.attachments) await replaceAttachments(trx, id, data.attachments);
      if (data.labels) await replaceTaskLabels(trx, id, data.labels);
      await updateTaskRow(trx, row, patch);
      const after = await this.hydrateOne(trx, { ...row, ...patch });
      await this.record(trx, actorId, before, after, 'checklist');
      return after;
    });
  }

  /** 404 unless `user` can see task `id`. */
  async assertVisible(user: RequestUser, id: string): Promise<void> {
    if (!(await this.canSee(user, id))) throw NotFound(apiMessages.taskNotFound);
  }

  /** True when `user` can see task `id` (`db`: a transaction to read within). */
  async canSee(user: RequestUser, id: string, db: Kysely<Database> = this.db): Promise<boolean> {
    return (await findTaskRow(db, id, visibleScope(user))) !== undefined;
  }

  /**
   * Runs `change` on task `id` in a transaction, under its row lock, once the caller is known
   * to see it. For the other features' changes to a task (files, comments). With
   * `changesTask` (a change to what the task answer shows, e.g. its files) the task gets a new
   * version, so its ETag changes and a cached copy is not served again.
   */
  async changeWithin<T>(
    user: RequestUser,
    id: string,
    change: (trx: Kysely<Database>, task: Task) => Promise<T>,
    { changesTask = false }: { changesTask?: boolean } = {},
  ): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      const row = await this.lockVisibleTask(trx, user, id);
      const result = await change(trx, await this.hydrateOne(trx, row));
      if (changesTask) await updateTaskRow(trx, row, { updated_at: nextUpdatedAt(row) });
      return result;
    });
  }

  async delete(id: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const assigneeIds = await taskAssigneeIds(trx, id);
      // Assignees, checklist items and attachments go with it (ON DELETE CASCADE).
      if (!(await deleteTaskRow(trx, id))) throw NotFound(apiMessages.taskNotFound);
      await appendTaskDeleted(trx, id, assigneeIds);
    });
  }

  /**
   * Checklist update. A member may only tick or untick: the same items, same texts, same order.
   * An admin may also edit the list, with the update rule for flags left out.
   */
  async updateChecklist(user: RequestUser, id: string, incoming: TodoItemInput[]): Promise<Task> {
    return this.db.transaction().execute(async (trx) => {
      const row = await this.lockVisibleTask(trx, user, id);
      const before = await this.hydrateOne(trx, row);
      const existing = storedItemsOf(before);
      const sameList =
        existing.length === incoming.length &&
        existing.every((item, index) => item.text === incoming[index]?.text);
      if (sameList) {
        const items = existing.map((item, index) => ({
          ...item,
          completed: incoming[index]?.completed ?? item.completed,
        }));
        await setChecklistFlags(trx, id, items);
        return this.saveChecklistOutcome(trx, row, items, user.id, before, { flagsOnly: true });
      }
      if (!canEditTask(user)) throw BadRequest(apiMessages.checklistMemberChange);
      // Read again for who added each item, which an edit keeps.
      const items = mergeStoredChecklist(await loadChecklist(trx, id), incoming, user.id);
      await replaceChecklist(trx, id, items);
      return this.saveChecklistOutcome(trx, row, items, user.id, before);
    });
  }

  /**
   * One item ticked or unticked. Several processes may tick items of one task at once: the row
   * lock makes each read-modify-write wait for the previous one, so no tick and no count is lost.
   */
  async setChecklistItem(
    user: RequestUser,
    id: string,
    itemId: string,
    completed: boolean,
  ): Promise<Task> {
    return this.db.transaction().execute(async (trx) => {
      const row = await this.lockVisibleTask(trx, user, id);
      const before = await this.hydrateOne(trx, row);
      const existing = storedItemsOf(before);
      if (!existing.some((item) => item.id === itemId)) {
        throw NotFound(apiMessages.checklistItemNotFound);
      }
      const items = existing.map((item) => (item.id === itemId ? { ...item, completed } : item));
      await setChecklistFlags(trx, id, [{ id: itemId, completed }]);
      return this.saveChecklistOutcome(trx, row, items, user.id, before, { flagsOnly: true });
    });
  }

  /** Adds an item at the end (admins, and assignees on their own task): not done. */
  async addChecklistItem(user: RequestUser, id: string, text: string): Promise<Task> {
    return this.db.transaction().execute(async (trx) => {
      const row = await this.lockVisibleTask(trx, user, id);
      const before = await this.hydrateOne(trx, row);
      const existing = await loadChecklist(trx, id);
      const items = [...existing, { id: newRowId(), text, completed: false, createdBy: user.id }];
      await replaceChecklist(trx, id, items);
      return this.saveChecklistOutcome(trx, row, items, user.id, before);
    });
  }

  /**
   * Renames an item; its tick and id stay. Admins rename any item, an assignee the items they
   * added (403 otherwise).
   */
  async renameChecklistItem(
    user: RequestUser,
    id: string,
    itemId: string,
    text: string,
  ): Promise<Task> {
    return this.db.transaction().execute(async (trx) => {
      const row = await this.lockVisibleTask(trx, user, id);
      const before = await this.hydrateOne(trx, row);
      const existing = await loadChecklist(trx, id);
      const item = existing.find((candidate) => candidate.id === itemId);
      if (!item) throw NotFound(apiMessages.checklistItemNotFound);
      if (!canEditTask(user) && item.createdBy !== user.id) {
        throw Forbidden(apiMessages.checklistRenameForbidden);
      }
      const items = existing.map((old) => (old.id === itemId ? { ...old, text } : old));
      await replaceChecklist(trx, id, items);
      return this.saveChecklistOutcome(trx, row, items, user.id, before);
    });
  }

  /** Puts the items in the order of `ids` (every item id, once each): admins. */
  async reorderChecklist(user: RequestUser, id: string, ids: string[]): Promise<Task> {
    return this.db.transaction().execute(async (trx) => {
      const row = await this.lockVisibleTask(trx, user, id);
      if (!canEditTask(user)) throw Forbidden(apiMessages.checklistReorderForbidden);
      const before = await this.hydrateOne(trx, row);
      const existing = await loadChecklist(trx, id);
      const byId = new Map(existing.map((item) => [item.id, item]));
      const items = ids.map((itemId) => byId.get(itemId));
      if (
        ids.length !== existing.length ||
        new Set(ids).size !== ids.length ||
        items.some((item) => item === undefined)
      ) {
        const message = validationMessages.checklistOrderIds;
        throw BadRequest(message, [{ path: 'ids', message }]);
      }
      const ordered = items.filter((item) => item !== undefined);
      await replaceChecklist(trx, id, ordered);
      return this.saveChecklistOutcome(trx, row, ordered, user.id, before);
    });
  }

  /** Status change: the checklist moves with it (the shared rule, changeStatus). */
  async updateStatus(user: RequestUser, id: string, status: TaskStatus): Promise<Task> {
    return this.db.transaction().execute(async (trx) => {
      const row = await this.lockVisibleTask(trx, user, id);
      const before = await this.hydrateOne(trx, row);
      const change = changeStatus(storedItemsOf(before), status);
      if (!change.allowed) throw BadRequest(apiMessages.statusNeedsOpenItem);
      if (change.setsEveryFlag) await setChecklistFlags(trx, id, change.items);
      const patch = { ...stateColumns(change.state), updated_at: nextUpdatedAt(row) };
      await updateTaskRow(trx, row, patch);
      // Only the flags and the state they make changed (changeStatus): no rebuild needed.
      const after = await this.afterFlagsChanged(trx, before, { ...row, ...patch }, change.items);
      await this.record(trx, user.id, before, after, 'move');
      return after;
    });
  }

  /** Dashboard figures, counted with SQL aggregates; `scope` picks whose tasks. */
  /** Every task, newest first, a batch at a time, with its assignees named: for the export. */
  exportRows(): AsyncGenerator<TaskReportRow> {
    return streamTaskReportRows(this.db);
  }

  /**
   * A dashboard for a conditional GET: its ETag (the data version, the caller, `key` and the
   * overdue count, the one figure that moves with the clock) is given to `fresh` first; when the
   * caller has it, nothing more is read (undefined).
   */
  async dashboardUnlessFresh(
    user: RequestUser,
    scope: TaskScope,
    key: string,
    fresh: (etag: string) => boolean,
  ): Promise<JsonBody | undefined> {
    const version = await this.dataVersionOf(user);
    const now = new Date().toISOString();
    const counted = await countDashboardFigures(this.db, scope, now, version);
    if (fresh(versionETag(version, user, key, counted.overdue))) return undefined;
    return this.dashboard(scope, counted);
  }

  /** `known`: the figures, when the caller just counted them (countDashboardFigures). */
  async dashboard(
    scope: TaskScope,
    known?: Awaited<ReturnType<typeof countDashboardFigures>>,
  ): Promise<JsonBody> {
    const [
      {
        counts: { total, byStatus, byPriority },
        overdue,
      },
      recentIds,
    ] = await Promise.all([
      known ?? countDashboardFigures(this.db, scope, new Date().toISOString()),
      newestTaskIds(this.db, scope, 10),
    ]);
    const figures: Omit<DashboardResponse, 'recentTasks'> = {
      statistics: {
        totalTasks: total,
        pendingTasks: byStatus.Pending,
        inProgressTasks: byStatus['In Progress'],
        completedTasks: byStatus.Completed,
        overdueTasks: overdue,
      },
      charts: {
        taskDistribution: {
          All: total,
          Pending: byStatus.Pending,
          InProgress: byStatus['In Progress'],
          Completed: byStatus.Completed,
        },
        taskPriorityLevels: byPriority,
      },
    };
    const recent = await taskDocuments(this.db, recentIds);
    return new JsonBody(
      jsonObject([
        ['statistics', toJsonText(figures.statistics)],
        ['charts', toJsonText(figures.charts)],
        ['recentTasks', jsonArray(recent)],
      ]),
    );
  }

  /**
   * The data version an answer to `user`'s request is tagged with: as the session check read it,
   * before anything else the request read (tasks/conditional.ts), or read now where none did.
   */
  private async dataVersionOf(user: RequestUser): Promise<number> {
    return user.dataVersion ?? readDataVersion(this.db);
  }

  private async lockVisibleTask(trx: Kysely<Database>, user: RequestUser, id: string) {
    const everyTask = seesEveryTask(user);
    // SQLite's transaction holds the whole file from its start (BEGIN IMMEDIATE): there is no row
    // to lock, and the task as the caller may see it is the one read needed.
    if (!everyTask && !supportsRowLocks(trx)) {
      const row = await findTaskRow(trx, id, visibleScope(user));
      if (!row) throw NotFound(apiMessages.taskNotFound);
      return row;
    }
    const row = await lockTaskRow(trx, id);
    if (!row) throw NotFound(apiMessages.taskNotFound);
    if (!everyTask && !(await findTaskRow(trx, id, visibleScope(user)))) {
      throw NotFound(apiMessages.taskNotFound);
    }
    return row;
  }

  /**
   * Stores what the checklist `items` make of the task (progress, status, count), records what
   * changed since `before`, and answers the task.
   */
  private async saveChecklistOutcome(
    trx: Kysely<Database>,
    row: TaskRow,
    items: StoredItem[],
    actorId: string,
    before: Task,
    { flagsOnly = false }: { flagsOnly?: boolean } = {},
  ) {
    const patch = { ...stateAfterWrite(row, items), updated_at: nextUpdatedAt(row) };
    await updateTaskRow(trx, row, patch);
    const patched = { ...row, ...patch };
    // Only flags changed: the answer is `before` with them, not built again (documents.ts).
    const after = flagsOnly
      ? await this.afterFlagsChanged(trx, before, patched, items)
      : await this.hydrateOne(trx, patched);
    await this.record(trx, actorId, before, after, 'checklist');
    return after;
  }

  /**
   * The task after a write that changed only its items' flags (now `items`) and the state they
   * make (in `patched`, its row as written): `before` with them (afterFlagsWrite), kept as its
   * stored answer on SQLite.
   */
  private async afterFlagsChanged(
    trx: Kysely<Database>,
    before: Task,
    patched: TaskRow,
    items: ReadonlyArray<{ id: string; completed: boolean }>,
  ): Promise<Task> {
    const completed = new Map(items.map((item) => [item.id, item.completed]));
    const after = afterFlagsWrite(before, patched, completed);
    await keepTaskDocument(trx, patched.id, toJsonText(after));
    return after;
  }

  /** Records in the history what changed between `before` and `after`. */
  private async record(
    trx: Kysely<Database>,
    actorId: string | null,
    before: Task,
    after: Task,
    reason: StatusReason,
  ) {
    await recordActivity(trx, after._id, actorId, taskChanges(before, after, reason), {
      task: known(after),
    });
  }

  /** Every id names an active user (or, editing task `keepOf`, one it already has). */
  private async assertUsersExist(trx: Kysely<Database>, ids: string[], keepOf?: string) {
    const found = await existingUserIds(trx, ids, keepOf);
    const missing = ids.find((id) => !found.has(id));
    if (missing) {
      throw BadRequest(apiMessages.assigneeNotFound, [
        { path: 'assignedTo', message: `${apiMessages.assigneeNotFound}: ${missing}` },
      ]);
    }
  }

  /** Refuses (400, naming `field`) any id that is no label. */
  private async assertLabelsExist(db: Kysely<Database>, ids: string[], field: string) {
    const found = await existingLabelIds(db, ids);
    const missing = ids.find((id) => !found.has(id));
    if (missing) {
      const message =
        field === 'label' ? apiMessages.unknownLabelFilter : `labels: ${apiMessages.labelNotFound}`;
      throw BadRequest(message, [{ path: field, message: `${message}: ${missing}` }]);
    }
  }

  /**
   * The task of `row` as it now stands in `db` (after the transaction's own writes), read in one
   * statement (documents.ts).
   */
  private async hydrateOne(db: Kysely<Database>, row: TaskRow): Promise<Task> {
    return JSON.parse(await this.documentOf(db, row.id)) as Task;
  }

  /** Task `id`'s JSON (documents.ts); deleted in between, it is as if it had not been found. */
  private async documentOf(db: Kysely<Database>, id: string): Promise<JsonText> {
    const [document] = await taskDocuments(db, [id]);
    if (!document) throw NotFound(apiMessages.taskNotFound);
    return document;
  }
}
