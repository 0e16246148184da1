import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  apiMessages,
  changeStatus,
  checklistState as stateOfChecklist,
  mergeChecklist,
  type ChecklistState,
  type CreateTaskData,
  type DashboardResponse,
  type Task,
  type TaskListResponse,
  type TaskStatus,
  type TodoItemInput,
  type UpdateTaskData,
} from '@task-manager/shared';
import type { Database } from '../db/tables.js';
import { BadRequest, NotFound } from '../errors.js';
import { decodeCursor, encodeCursor, taskCursorShape } from '../http/cursor.js';
import type { RequestUser } from '../http/request-user.js';
import {
  countOverdueTasks,
  countTasks,
  deleteTaskRow,
  findTaskRow,
  hydrateTasks,
  insertTaskRow,
  listTaskRows,
  loadChecklist,
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
} from './repository.js';
import { canEditTask, seesEveryTask, visibleScope } from './policy.js';

type StoredItem = { id: string; text: string; completed: boolean };

/** What a checklist makes of its task (the shared rule), in the task row's columns. */
function stateColumns({ progress, status, completedTodoCount }: ChecklistState) {
  return { progress, status, completed_todo_count: completedTodoCount };
}

function checklistState(items: ReadonlyArray<{ completed: boolean }>) {
  return stateColumns(stateOfChecklist(items));
}

/** The shared update rule (spec section 5); an item taken over keeps its id, a new one gets one. */
function mergeStoredChecklist(
  existing: ReadonlyArray<StoredItem>,
  incoming: ReadonlyArray<TodoItemInput>,
): StoredItem[] {
  return mergeChecklist(existing, incoming).map(({ text, completed, previous }) => ({
    id: previous?.id ?? randomUUID(),
    text,
    completed,
  }));
}

export class TaskService {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * One page of the caller's tasks, newest first, after `cursor`. The summary counts every task
   * the caller may see, whatever the filter or page.
   */
  async list(
    user: RequestUser,
    query: { status?: TaskStatus; limit: number; cursor?: string },
  ): Promise<TaskListResponse> {
    const scope = visibleScope(user);
    const before = query.cursor ? decodeCursor(query.cursor, taskCursorShape) : undefined;
    // One row more than asked tells whether a next page exists without counting.
    const [rows, { total, byStatus }] = await Promise.all([
      listTaskRows(this.db, scope, { status: query.status, limit: query.limit + 1, before }),
      countTasks(this.db, scope),
    ]);
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      tasks: await hydrateTasks(this.db, page),
      statusSummary: {
        all: total,
        pendingTasks: byStatus.Pending,
        inProgressTasks: byStatus['In Progress'],
        completedTasks: byStatus.Completed,
      },
      nextCursor:
        rows.length > query.limit && last ? encodeCursor([last.created_at, last.id]) : null,
    };
  }

  /** A member who is not assigned gets the same 404 as for an unknown id. */
  async get(user: RequestUser, id: string): Promise<Task> {
    const row = await findTaskRow(this.db, id, visibleScope(user));
    if (!row) throw NotFound(apiMessages.taskNotFound);
    return this.hydrateOne(this.db, row);
  }

  async create(creatorId: string, data: CreateTaskData): Promise<Task> {
    return this.db.transaction().execute(async (trx) => {
      await this.assertUsersExist(trx, data.assignedTo);
      const items = data.todoChecklist.map((item) => ({
        id: randomUUID(),
        text: item.text,
        completed: item.completed ?? false,
      }));
      const now = new Date().toISOString();
      const row: TaskRow = {
        id: randomUUID(),
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
      await replaceAssignees(trx, row.id, data.assignedTo);
      await replaceChecklist(trx, row.id, items);
      await replaceAttachments(trx, row.id, data.attachments);
      return this.hydrateOne(trx, row);
    });
  }

  async update(id: string, data: UpdateTaskData): Promise<Task> {
    return this.db.transaction().execute(async (trx) => {
      const row = await lockTaskRow(trx, id);
      if (!row) throw NotFound(apiMessages.taskNotFound);
      if (data.assignedTo) await this.assertUsersExist(trx, data.assignedTo);
      let patch: Partial<TaskRow> = {
        ...(data.title !== undefined && { title: data.title }),
        ...(data.description !== undefined && { description: data.description }),
        ...(data.priority !== undefined && { priority: data.priority }),
        ...(data.dueDate !== undefined && { due_date: data.dueDate }),
        updated_at: new Date().toISOString(),
      };
      if (data.todoChecklist) {
        const items = mergeStoredChecklist(await loadChecklist(trx, id), data.todoChecklist);
        await replaceChecklist(trx, id, items);
        patch = { ...patch, ...checklistState(items) };
      }
      if (data.assignedTo) await replaceAssignees(trx, id, data.assignedTo);
      if (data.attachments) await replaceAttachments(trx, id, data.attachments);
      await updateTaskRow(trx, id, patch);
      return this.hydrateOne(trx, { ...row, ...patch });
    });
  }

  async delete(id: string): Promise<void> {
    // Assignees, checklist items and attachments go with it (ON DELETE CASCADE).
    if (!(await deleteTaskRow(this.db, id))) throw NotFound(apiMessages.taskNotFound);
  }

  /**
   * Checklist update. A member may only tick or untick: the same items, same texts, same order.
   * An admin may also edit the list, with the update rule for flags left out.
   */
  async updateChecklist(user: RequestUser, id: string, incoming: TodoItemInput[]): Promise<Task> {
    return this.db.transaction().execute(async (trx) => {
      const row = await this.lockVisibleTask(trx, user, id);
      const existing = await loadChecklist(trx, id);
      const sameList =
        existing.length === incoming.length &&
        existing.every((item, index) => item.text === incoming[index]?.text);
      let items: StoredItem[];
      if (sameList) {
        items = existing.map((item, index) => ({
          ...item,
          completed: incoming[index]?.completed ?? item.completed,
        }));
        await setChecklistFlags(trx, id, items);
      } else {
        if (!canEditTask(user)) throw BadRequest(apiMessages.checklistMemberChange);
        items = mergeStoredChecklist(existing, incoming);
        await replaceChecklist(trx, id, items);
      }
      return this.saveChecklistOutcome(trx, row, items);
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
      const existing = await loadChecklist(trx, id);
      if (!existing.some((item) => item.id === itemId)) {
        throw NotFound(apiMessages.checklistItemNotFound);
      }
      const items = existing.map((item) => (item.id === itemId ? { ...item, completed } : item));
      await setChecklistFlags(trx, id, [{ id: itemId, completed }]);
      return this.saveChecklistOutcome(trx, row, items);
    });
  }

  /** Status change: the checklist moves with it (the shared rule, changeStatus). */
  async updateStatus(user: RequestUser, id: string, status: TaskStatus): Promise<Task> {
    return this.db.transaction().execute(async (trx) => {
      const row = await this.lockVisibleTask(trx, user, id);
      const change = changeStatus(await loadChecklist(trx, id), status);
      if (!change.allowed) throw BadRequest(apiMessages.statusNeedsPartialChecklist);
      if (change.setsEveryFlag) await setChecklistFlags(trx, id, change.items);
      const patch = { ...stateColumns(change.state), updated_at: new Date().toISOString() };
      await updateTaskRow(trx, id, patch);
      return this.hydrateOne(trx, { ...row, ...patch });
    });
  }

  /** Dashboard figures, counted with SQL aggregates; `scope` picks whose tasks. */
  /** Every task, newest first, a batch at a time, with its assignees named: for the export. */
  exportRows(): AsyncGenerator<TaskReportRow> {
    return streamTaskReportRows(this.db);
  }

  async dashboard(scope: TaskScope): Promise<DashboardResponse> {
    const [{ total, byStatus, byPriority }, overdue, recentRows] = await Promise.all([
      countTasks(this.db, scope),
      countOverdueTasks(this.db, scope, new Date().toISOString()),
      listTaskRows(this.db, scope, { limit: 10 }),
    ]);
    return {
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
      recentTasks: await hydrateTasks(this.db, recentRows),
    };
  }

  private async lockVisibleTask(trx: Kysely<Database>, user: RequestUser, id: string) {
    const row = await lockTaskRow(trx, id);
    if (!row) throw NotFound(apiMessages.taskNotFound);
    if (!seesEveryTask(user) && !(await findTaskRow(trx, id, visibleScope(user)))) {
      throw NotFound(apiMessages.taskNotFound);
    }
    return row;
  }

  /** Stores what the checklist `items` make of the task (progress, status, count); answers it. */
  private async saveChecklistOutcome(trx: Kysely<Database>, row: TaskRow, items: StoredItem[]) {
    const patch = { ...checklistState(items), updated_at: new Date().toISOString() };
    await updateTaskRow(trx, row.id, patch);
    return this.hydrateOne(trx, { ...row, ...patch });
  }

  private async assertUsersExist(trx: Kysely<Database>, ids: string[]) {
    const found = await existingUserIds(trx, ids);
    const missing = ids.find((id) => !found.has(id));
    if (missing) {
      throw BadRequest(apiMessages.assigneeNotFound, [
        { path: 'assignedTo', message: `${apiMessages.assigneeNotFound}: ${missing}` },
      ]);
    }
  }

  private async hydrateOne(db: Kysely<Database>, row: TaskRow): Promise<Task> {
    const [task] = await hydrateTasks(db, [row]);
    if (!task) throw NotFound(apiMessages.taskNotFound);
    return task;
  }
}
