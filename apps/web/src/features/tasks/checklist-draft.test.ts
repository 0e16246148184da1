import { describe, expect, it } from 'vitest';
import {
  draftFromItems,
  draftToInput,
  dropIndex,
  moveItem,
  newDraftItem,
  renameDraftItem,
  withCurrentTicks,
} from './checklist-draft';

const stored = [
  { _id: 'a', text: 'Draft', completed: true },
  { _id: 'b', text: 'Review', completed: false },
];

describe('moveItem', () => {
  it.each([
    [0, 2, ['B', 'C', 'A']],
    [2, 0, ['C', 'A', 'B']],
    [1, 2, ['A', 'C', 'B']],
    [1, 1, ['A', 'B', 'C']],
    [0, -1, ['A', 'B', 'C']],
    [2, 9, ['A', 'B', 'C']],
  ])('moves %i to %i', (from, to, expected) => {
    expect(moveItem(['A', 'B', 'C'], from, to)).toEqual(expected);
  });

  it('leaves the list it was given alone, and copes with an empty one', () => {
    const list = ['A', 'B'];
    moveItem(list, 0, 1);
    expect(list).toEqual(['A', 'B']);
    expect(moveItem([], 0, 1)).toEqual([]);
  });
});

describe('dropIndex: where a dragged row lands', () => {
  const middles = [10, 30, 50, 70];
  it.each([
    [0, 5, 0],
    [0, 35, 1],
    [0, 99, 3],
    [3, 0, 0],
    [3, 45, 2],
    [1, 31, 1],
  ])('row %i dropped at y=%i lands at %i', (dragged, y, expected) => {
    expect(dropIndex(middles, dragged, y)).toBe(expected);
  });
});

describe('the checklist draft', () => {
  it('sends stored items with their id and no flag, new ones not done', () => {
    const draft = [...draftFromItems(stored), newDraftItem('Ship')];
    const renamed = renameDraftItem(draft, 'a', 'First draft');
    expect(draftToInput(moveItem(renamed, 0, 1))).toEqual([
      { _id: 'b', text: 'Review' },
      { _id: 'a', text: 'First draft' },
      { text: 'Ship', completed: false },
    ]);
  });

  it('gives new items keys of their own, and keeps ticks of stored items only', () => {
    const one = newDraftItem('Same');
    const two = newDraftItem('Same');
    expect(one.key).not.toBe(two.key);
    const draft = [...draftFromItems(stored), one];
    const current = [
      { _id: 'a', text: 'Draft', completed: false },
      { _id: 'b', text: 'Review', completed: true },
    ];
    expect(withCurrentTicks(draft, current).map((item) => item.completed)).toEqual([
      false,
      true,
      false,
    ]);
  });
});
