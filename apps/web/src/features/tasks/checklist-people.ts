import type { Activity } from '@task-manager/shared';

/** Who added each checklist item and who ticked the ones that are ticked, by item id. */
export interface ChecklistPeople {
  /** Item id to the id of the person who added it. */
  addedBy: ReadonlyMap<string, string>;
  /** Item id to the name of the person whose tick it carries now. */
  tickedBy: ReadonlyMap<string, string>;
}

function itemIdOf(entry: Activity): string | undefined {
  const itemId = entry.data.itemId;
  return typeof itemId === 'string' ? itemId : undefined;
}

/**
 * Read from a task's history (oldest first): task answers keep the spec's item shape (id, text,
 * tick), so the history is where the checklist's people are.
 */
export function checklistPeople(history: readonly Activity[]): ChecklistPeople {
  const addedBy = new Map<string, string>();
  const tickedBy = new Map<string, string>();
  for (const entry of history) {
    const itemId = itemIdOf(entry);
    if (!itemId) continue;
    if (entry.type === 'checklist.added' && entry.actor) addedBy.set(itemId, entry.actor._id);
    if (entry.type === 'checklist.ticked') {
      if (entry.actor) tickedBy.set(itemId, entry.actor.name);
      else tickedBy.delete(itemId);
    }
    if (entry.type === 'checklist.unticked' || entry.type === 'checklist.removed') {
      tickedBy.delete(itemId);
    }
  }
  return { addedBy, tickedBy };
}
