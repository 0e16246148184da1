import type { TodoItem, TodoItemInput } from '@task-manager/shared';

/**
 * One checklist item while the task form is being edited. `_id` is the stored item it stands
 * for (none for an item added in this form): the form sends it, so that a renamed or moved item
 * keeps its id and its tick on the server. `key` tells the rows apart while editing.
 */
export interface ChecklistDraftItem {
  key: string;
  _id?: string;
  text: string;
  /** The stored tick, shown to the admin; the form never changes it. */
  completed: boolean;
}

let lastNewKey = 0;

/** An item typed into the form: not stored yet, not done. */
export function newDraftItem(text: string): ChecklistDraftItem {
  lastNewKey += 1;
  return { key: `new-${lastNewKey}`, text, completed: false };
}

/** The stored checklist as the form edits it. */
export function draftFromItems(items: readonly TodoItem[]): ChecklistDraftItem[] {
  return items.map(({ _id, text, completed }) => ({ key: _id, _id, text, completed }));
}

/**
 * The checklist as PUT/POST /api/tasks take it. A stored item goes with its id and without a
 * flag, so its tick stays whatever it is on the server now (a member may have ticked it while
 * the admin was editing); a new item starts not done.
 */
export function draftToInput(items: readonly ChecklistDraftItem[]): TodoItemInput[] {
  return items.map(({ _id, text }) =>
    _id === undefined ? { text, completed: false } : { _id, text },
  );
}

/** The list with the entry at `from` moved to `to` (both clamped to the list). */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const last = list.length - 1;
  const source = Math.min(Math.max(from, 0), last);
  const target = Math.min(Math.max(to, 0), last);
  if (list.length === 0 || source === target) return [...list];
  const next = [...list];
  const [moved] = next.splice(source, 1);
  next.splice(target, 0, moved as T);
  return next;
}

/**
 * Where a dragged row lands: the number of the other rows whose middle is above the pointer.
 * `middles` are the rows' vertical middles in list order, the dragged row's included.
 */
export function dropIndex(middles: readonly number[], dragged: number, pointerY: number): number {
  return middles.filter((middle, index) => index !== dragged && middle < pointerY).length;
}

/** The draft with one item's text replaced. */
export function renameDraftItem(
  items: readonly ChecklistDraftItem[],
  key: string,
  text: string,
): ChecklistDraftItem[] {
  return items.map((item) => (item.key === key ? { ...item, text } : item));
}

/** The draft with each stored item's tick as it is in `current` (after a reload or a conflict). */
export function withCurrentTicks(
  items: readonly ChecklistDraftItem[],
  current: readonly TodoItem[],
): ChecklistDraftItem[] {
  const ticks = new Map(current.map((item) => [item._id, item.completed]));
  return items.map((item) =>
    item._id !== undefined && ticks.has(item._id)
      ? { ...item, completed: ticks.get(item._id) ?? item.completed }
      : item,
  );
}
