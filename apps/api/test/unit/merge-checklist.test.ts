import { describe, expect, it } from 'vitest';
import { mergeChecklist } from '../../src/tasks/service.js';

const existing = [
  { id: 'a', text: 'Draft', completed: true },
  { id: 'b', text: 'Review', completed: false },
  { id: 'c', text: 'Draft', completed: false },
];

describe('checklist update rule', () => {
  it('keeps the state and id of items whose text matches, new items start open', () => {
    const merged = mergeChecklist(existing, [
      { text: 'Review' },
      { text: 'Draft' },
      { text: 'Ship' },
    ]);
    expect(merged.map(({ text, completed }) => ({ text, completed }))).toEqual([
      { text: 'Review', completed: false },
      { text: 'Draft', completed: true },
      { text: 'Ship', completed: false },
    ]);
    expect(merged[0]?.id).toBe('b');
    expect(merged[1]?.id).toBe('a');
    expect(merged[2]?.id).not.toMatch(/^[abc]$/);
  });

  it('matches each existing item once, so duplicates keep their own states', () => {
    const merged = mergeChecklist(existing, [{ text: 'Draft' }, { text: 'Draft' }]);
    expect(merged.map((item) => [item.id, item.completed])).toEqual([
      ['a', true],
      ['c', false],
    ]);
  });

  it('uses the flag the client sent when it sent one', () => {
    const merged = mergeChecklist(existing, [{ text: 'Draft', completed: false }]);
    expect(merged[0]?.completed).toBe(false);
  });
});
