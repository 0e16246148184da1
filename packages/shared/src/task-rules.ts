import type { TaskStatus, TodoItemInput } from './schemas/task.js';

/**
 * The task rules the API enforces and the web app follows, in one place: how an edited checklist
 * keeps its ticks, what the checklist makes of progress and status, and which status changes are
 * allowed (docs/decisions/003-status-follows-checklist.md).
 */

/** A checklist item as far as the rules care: its text and whether it is done. */
export interface ChecklistEntry {
  text: string;
  completed: boolean;
}

/** Progress in whole percent: round(done / total * 100); an empty checklist is 0. */
export function progressOf(items: ReadonlyArray<{ completed: boolean }>): number {
  if (items.length === 0) return 0;
  const done = items.filter((item) => item.completed).length;
  return Math.round((done / items.length) * 100);
}

/** Status follows progress: 0 is Pending, 100 is Completed, anything between is In Progress. */
export function statusOf(progress: number): TaskStatus {
  if (progress >= 100) return 'Completed';
  if (progress <= 0) return 'Pending';
  return 'In Progress';
}

/** What a checklist makes of its task; stored with the task so lists can count and filter. */
export interface ChecklistState {
  progress: number;
  status: TaskStatus;
  completedTodoCount: number;
}

export function checklistState(items: ReadonlyArray<{ completed: boolean }>): ChecklistState {
  const progress = progressOf(items);
  return {
    progress,
    status: statusOf(progress),
    completedTodoCount: items.filter((item) => item.completed).length,
  };
}

/**
 * What a checklist write makes of a task that was `previous`: the checklist's state, except that
 * a started task (moved to In Progress with nothing done yet, docs/decisions/007-board-moves.md)
 * stays In Progress while nothing is done: editing its list or unticking nothing does not send
 * it back to Pending. Once an item is ticked, the checklist alone decides again.
 */
export function checklistStateAfterWrite(
  previous: { status: TaskStatus; completedTodoCount: number },
  items: ReadonlyArray<{ completed: boolean }>,
): ChecklistState {
  const state = checklistState(items);
  const started = previous.status === 'In Progress' && previous.completedTodoCount === 0;
  if (started && state.completedTodoCount === 0) return { ...state, status: 'In Progress' };
  return state;
}

/** One item of an edited checklist, with the existing item it took over (none for a new one). */
export interface MergedChecklistItem<Existing> extends ChecklistEntry {
  previous: Existing | undefined;
}

/**
 * The update rule of spec section 5: an item keeps the completed state of an existing item with
 * the same text, unless it says its own; every other item starts not completed. Each existing
 * item is matched once, so duplicates pair up in order. An incoming item that names an existing
 * item's id (`_id`, read through `idOf`) takes that item over first, whatever its text: that is
 * how a rename keeps its tick. `previous` lets a caller keep what else the matched item had (the
 * API keeps its id).
 */
export function mergeChecklist<Existing extends ChecklistEntry>(
  existing: readonly Existing[],
  incoming: readonly TodoItemInput[],
  idOf?: (item: Existing) => string,
): MergedChecklistItem<Existing>[] {
  const unmatched = [...existing];
  const take = (index: number) => (index >= 0 ? unmatched.splice(index, 1)[0] : undefined);
  // Ids first, so a text match never takes an item another incoming item names by id.
  const byId = incoming.map((item) =>
    item._id !== undefined && idOf
      ? take(unmatched.findIndex((old) => idOf(old) === item._id))
      : undefined,
  );
  return incoming.map((item, position) => {
    const previous = byId[position] ?? take(unmatched.findIndex((old) => old.text === item.text));
    return { text: item.text, completed: item.completed ?? previous?.completed ?? false, previous };
  });
}

/** Asking for a status: refused, or the checklist and the task's state once it is applied. */
export type StatusChange<Item> =
  | { allowed: false }
  | {
      allowed: true;
      /** The checklist after the change. */
      items: Item[];
      /** Completed and Pending set every item's flag; In Progress leaves the flags as they are. */
      setsEveryFlag: boolean;
      state: ChecklistState;
    };

/**
 * A status change moves the checklist, since status always follows it: Completed ticks every
 * item, Pending unticks every item. In Progress leaves the items as they are: on a partly done
 * checklist it is what the checklist says already; on one with nothing done it marks the task
 * started (progress 0: docs/decisions/007-board-moves.md, so that a board's "Pending to In
 * Progress" move works); on one with every item done it is refused, since no item says which
 * one is not done after all. A task with no checklist at all (only possible for old data) takes
 * the status as asked.
 */
export function changeStatus<Item extends { completed: boolean }>(
  items: readonly Item[],
  status: TaskStatus,
): StatusChange<Item> {
  const setsEveryFlag = status === 'Completed' || status === 'Pending';
  if (!setsEveryFlag && items.length > 0 && checklistState(items).status === 'Completed') {
    return { allowed: false };
  }
  const after = setsEveryFlag
    ? items.map((item) => ({ ...item, completed: status === 'Completed' }))
    : [...items];
  const state =
    after.length === 0
      ? { progress: status === 'Completed' ? 100 : 0, status, completedTodoCount: 0 }
      : { ...checklistState(after), ...(status === 'In Progress' && { status }) };
  return { allowed: true, items: after, setsEveryFlag, state };
}
