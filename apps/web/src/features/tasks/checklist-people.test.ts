import type { Activity } from '@task-manager/shared';
import { describe, expect, it } from 'vitest';
import { checklistPeople } from './checklist-people';

let count = 0;
function entry(type: Activity['type'], actor: string | null, data: Record<string, unknown>) {
  count += 1;
  return {
    _id: `e${count}`,
    type,
    actor: actor ? { _id: `id-${actor}`, name: actor, profileImageUrl: null } : null,
    at: new Date(2031, 0, 1, 9, count).toISOString(),
    data,
    taskId: 't',
  } satisfies Activity;
}

describe('checklistPeople: who added and who ticked, from the history', () => {
  it('follows adds, ticks, unticks and removals in order', () => {
    const { addedBy, tickedBy } = checklistPeople([
      entry('task.created', 'Ada', { title: 'Plan' }),
      entry('checklist.added', 'Ada', { itemId: 'a', text: 'Draft' }),
      entry('checklist.added', 'Mia', { itemId: 'b', text: 'Mine' }),
      entry('checklist.ticked', 'Mia', { itemId: 'a', text: 'Draft' }),
      entry('checklist.ticked', 'Max', { itemId: 'b', text: 'Mine' }),
      entry('checklist.unticked', 'Max', { itemId: 'b', text: 'Mine' }),
      entry('checklist.ticked', 'Max', { itemId: 'c', text: 'Gone' }),
      entry('checklist.removed', 'Ada', { itemId: 'c', text: 'Gone' }),
      entry('checklist.ticked', null, { itemId: 'd', text: 'By someone deleted' }),
    ]);
    expect(Object.fromEntries(addedBy)).toEqual({ a: 'id-Ada', b: 'id-Mia' });
    expect(Object.fromEntries(tickedBy)).toEqual({ a: 'Mia' });
  });
});
