import type { ActivityType, Task } from '@task-manager/shared';

/** One entry of the history, before it is stored. */
export interface ActivityChange {
  type: ActivityType;
  data: Record<string, unknown>;
}

/** Why the status moved: the checklist moved it, or someone set it explicitly. */
export type StatusReason = 'checklist' | 'move';

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((value, index) => value === b[index]);

/**
 * What changed between two answers of the same task, as history entries: the fields (one
 * `task.updated` with before and after of each), assignees, checklist items, status, links and
 * labels. Files and comments are recorded where they are added or removed.
 */
export function taskChanges(before: Task, after: Task, reason: StatusReason): ActivityChange[] {
  const changes: ActivityChange[] = [];
  const fields: Record<string, { before: unknown; after: unknown }> = {};
  for (const field of ['title', 'description', 'priority', 'dueDate'] as const) {
    if (before[field] !== after[field]) {
      fields[field] = { before: before[field], after: after[field] };
    }
  }
  const labelsBefore = before.labels.map((label) => label._id).sort();
  const labelsAfter = after.labels.map((label) => label._id).sort();
  if (!sameList(labelsBefore, labelsAfter)) {
    fields.labels = { before: labelsBefore, after: labelsAfter };
  }
  if (Object.keys(fields).length > 0)
    changes.push({ type: 'task.updated', data: { changes: fields } });

  const assigneesBefore = new Map(before.assignedTo.map((user) => [user._id, user.name]));
  const assigneesAfter = new Map(after.assignedTo.map((user) => [user._id, user.name]));
  for (const [userId, name] of assigneesAfter) {
    if (!assigneesBefore.has(userId))
      changes.push({ type: 'assignee.added', data: { userId, name } });
  }
  for (const [userId, name] of assigneesBefore) {
    if (!assigneesAfter.has(userId)) {
      changes.push({ type: 'assignee.removed', data: { userId, name } });
    }
  }

  const itemsBefore = new Map(before.todoChecklist.map((item) => [item._id, item]));
  const itemsAfter = new Map(after.todoChecklist.map((item) => [item._id, item]));
  for (const item of after.todoChecklist) {
    const old = itemsBefore.get(item._id);
    if (!old) {
      changes.push({ type: 'checklist.added', data: { itemId: item._id, text: item.text } });
      if (item.completed) {
        changes.push({ type: 'checklist.ticked', data: { itemId: item._id, text: item.text } });
      }
      continue;
    }
    if (old.text !== item.text) {
      changes.push({
        type: 'checklist.renamed',
        data: { itemId: item._id, before: old.text, after: item.text },
      });
    }
    if (old.completed !== item.completed) {
      changes.push({
        type: item.completed ? 'checklist.ticked' : 'checklist.unticked',
        data: { itemId: item._id, text: item.text },
      });
    }
  }
  for (const item of before.todoChecklist) {
    if (!itemsAfter.has(item._id)) {
      changes.push({ type: 'checklist.removed', data: { itemId: item._id, text: item.text } });
    }
  }
  const keptBefore = before.todoChecklist.filter((i) => itemsAfter.has(i._id)).map((i) => i._id);
  const keptAfter = after.todoChecklist.filter((i) => itemsBefore.has(i._id)).map((i) => i._id);
  if (!sameList(keptBefore, keptAfter)) {
    changes.push({
      type: 'checklist.reordered',
      data: { itemIds: after.todoChecklist.map((item) => item._id) },
    });
  }

  if (before.status !== after.status) {
    changes.push({
      type: 'status.changed',
      data: { before: before.status, after: after.status, reason },
    });
  }

  const linksBefore = new Set(before.attachments);
  const linksAfter = new Set(after.attachments);
  for (const url of linksAfter) {
    if (!linksBefore.has(url)) changes.push({ type: 'link.added', data: { url } });
  }
  for (const url of linksBefore) {
    if (!linksAfter.has(url)) changes.push({ type: 'link.removed', data: { url } });
  }
  return changes;
}

/** The history of a new task: its creation, then everything it was created with. */
export function creationChanges(task: Task): ActivityChange[] {
  const empty: Task = {
    ...task,
    title: task.title,
    assignedTo: [],
    todoChecklist: [],
    attachments: [],
    labels: [],
    files: [],
  };
  const rest = taskChanges(empty, task, 'checklist').filter(
    (change) => change.type !== 'task.updated' && change.type !== 'checklist.ticked',
  );
  return [{ type: 'task.created', data: { title: task.title, status: task.status } }, ...rest];
}
