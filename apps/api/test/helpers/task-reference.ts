import type { Kysely } from 'kysely';
import {
  cardDescription,
  type Assignee,
  type Label,
  type Task,
  type TaskCard,
  type TaskFile,
} from '@task-manager/shared';
import type { Database } from '../../src/db/tables.js';
import type { TaskRow } from '../../src/tasks/repository.js';

/**
 * The reference the database-written task JSON (src/tasks/documents.ts) is held to: tasks built
 * row by row in JavaScript, as the API built them before, with five plain queries (assignees,
 * checklist items, links, labels and files of all the tasks at once). The parity test compares
 * the two for every kind of task; the query-plans test checks that these reads use indexes.
 */

/** The assignees of tasks `ids`, each task's in the order they were assigned. */
function readAssignees(db: Kysely<Database>, ids: string[]) {
  return db
    .selectFrom('task_assignees as ta')
    .innerJoin('users as u', 'u.id', 'ta.user_id')
    .select(['ta.task_id', 'u.id', 'u.name', 'u.email', 'u.profile_image_url', 'u.active'])
    .where('ta.task_id', 'in', ids)
    .orderBy('ta.task_id')
    .orderBy('ta.position')
    .execute();
}

/** The labels of tasks `ids`, each task's by name. */
function readLabels(db: Kysely<Database>, ids: string[]) {
  return db
    .selectFrom('task_labels as tl')
    .innerJoin('labels as l', 'l.id', 'tl.label_id')
    .select(['tl.task_id', 'l.id', 'l.name', 'l.color'])
    .where('tl.task_id', 'in', ids)
    .orderBy('tl.task_id')
    .orderBy('l.name_key')
    .execute();
}

/** Groups `list` by task id, each item mapped by `map`, in the order read. */
function byTask<T extends { task_id: string }, R>(list: T[], map: (item: T) => R) {
  const grouped = new Map<string, R[]>();
  for (const item of list) {
    const group = grouped.get(item.task_id);
    if (group) group.push(map(item));
    else grouped.set(item.task_id, [map(item)]);
  }
  return grouped;
}

function toAssignee(a: Awaited<ReturnType<typeof readAssignees>>[number]): Assignee {
  return {
    _id: a.id,
    name: a.name,
    email: a.email,
    profileImageUrl: a.profile_image_url,
    // Only a deactivated person carries the mark: everyone else's answer is as before.
    ...(Number(a.active) === 0 && { deactivated: true as const }),
  };
}

function toLabel(l: Awaited<ReturnType<typeof readLabels>>[number]): Label {
  return { _id: l.id, name: l.name, color: l.color };
}

/**
 * Turns task rows into API tasks with five more queries whatever their number: assignees,
 * checklist items, attachments, labels and files of all the tasks at once.
 */
export async function hydrateTasks(db: Kysely<Database>, rows: TaskRow[]): Promise<Task[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const [assignees, items, attachments, labels, files] = await Promise.all([
    readAssignees(db, ids),
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
    readLabels(db, ids),
    db
      .selectFrom('task_files')
      .select(['task_id', 'id', 'name', 'size', 'content_type', 'uploaded_by', 'created_at'])
      .where('task_id', 'in', ids)
      .where('complete', '=', 1)
      .orderBy('task_id')
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
  ]);
  const assigneesByTask = byTask(assignees, toAssignee);
  const itemsByTask = byTask(items, (i) => ({
    _id: i.id,
    text: i.text,
    completed: i.completed === 1,
  }));
  const linksByTask = byTask(attachments, (a) => a.url);
  const labelsByTask = byTask(labels, toLabel);
  const filesByTask = byTask(files, (f): TaskFile => ({
    _id: f.id,
    taskId: f.task_id,
    name: f.name,
    size: Number(f.size),
    contentType: f.content_type,
    uploadedBy: f.uploaded_by,
    createdAt: f.created_at,
  }));
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
    labels: labelsByTask.get(row.id) ?? [],
    files: filesByTask.get(row.id) ?? [],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }));
}

/** The card of a task, as the TaskCard schema describes it (`?view=card`). */
export function cardOf(task: Task): TaskCard {
  return {
    _id: task._id,
    title: task.title,
    description: cardDescription(task.description),
    priority: task.priority,
    status: task.status,
    progress: task.progress,
    dueDate: task.dueDate,
    createdBy: task.createdBy,
    assignedTo: task.assignedTo,
    completedTodoCount: task.completedTodoCount,
    todoDone: task.completedTodoCount,
    todoTotal: task.todoChecklist.length,
    attachmentCount: task.attachments.length,
    fileCount: task.files.length,
    labels: task.labels,
    createdAt: task.createdAt,
    updatedAt: task.updatedAt,
  };
}

/** Task `taskId`'s stored answer (the whole task's text, not a card's), if one is stored. */
export async function storedTaskText(
  db: Kysely<Database>,
  taskId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('task_documents')
    .select('document')
    .where('task_id', '=', taskId)
    .where('shape', 'like', 'task:%')
    .where('document', 'is not', null)
    .executeTakeFirst();
  return row?.document ?? undefined;
}
