import { describe, expect, it } from 'vitest';
import {
  changeStatus,
  checklistState,
  checklistStateAfterWrite,
  mergeChecklist,
  progressOf,
  statusOf,
} from '../src/task-rules.js';

const items = (done: number, total: number) =>
  Array.from({ length: total }, (_, i) => ({ completed: i < done }));

describe('progress follows the checklist', () => {
  it.each([
    [0, 0, 0],
    [0, 3, 0],
    [1, 3, 33],
    [2, 3, 67],
    [3, 3, 100],
    [1, 2, 50],
    [1, 8, 13],
    [199, 200, 100],
  ])('%i of %i done is %i%%', (done, total, expected) => {
    expect(progressOf(items(done, total))).toBe(expected);
  });
});

describe('status follows progress', () => {
  it.each([
    [0, 'Pending'],
    [1, 'In Progress'],
    [50, 'In Progress'],
    [99, 'In Progress'],
    [100, 'Completed'],
  ] as const)('%i%% is %s', (progress, status) => {
    expect(statusOf(progress)).toBe(status);
  });

  it('199 of 200 rounds to 100 yet is not every item: status still follows the rounded figure', () => {
    // round(199/200*100) = 100: the spec's rule is stated on progress, so it reads Completed.
    expect(statusOf(progressOf(items(199, 200)))).toBe('Completed');
  });

  it('gives progress, status and the done count of a checklist together', () => {
    expect(checklistState(items(1, 3))).toEqual({
      progress: 33,
      status: 'In Progress',
      completedTodoCount: 1,
    });
    expect(checklistState([])).toEqual({ progress: 0, status: 'Pending', completedTodoCount: 0 });
  });
});

describe('mergeChecklist: the update rule for checklist items', () => {
  const texts = (list: ReturnType<typeof mergeChecklist>) =>
    list.map(({ text, completed }) => ({ text, completed }));

  it('keeps the completed state of an item whose text matches and starts new items open', () => {
    const existing = [
      { text: 'Write the draft', completed: true },
      { text: 'Review the draft', completed: false },
    ];
    const merged = mergeChecklist(existing, [
      { text: 'Review the draft' },
      { text: 'Write the draft' },
      { text: 'Publish' },
    ]);
    expect(texts(merged)).toEqual([
      { text: 'Review the draft', completed: false },
      { text: 'Write the draft', completed: true },
      { text: 'Publish', completed: false },
    ]);
  });

  it('hands back the existing item each one took over, so its id can be kept', () => {
    const existing = [
      { id: 'a', text: 'Draft', completed: true },
      { id: 'b', text: 'Review', completed: false },
    ];
    const merged = mergeChecklist(existing, [
      { text: 'Review' },
      { text: 'Draft' },
      { text: 'Ship' },
    ]);
    expect(merged.map((item) => item.previous?.id)).toEqual(['b', 'a', undefined]);
  });

  it('treats an edited text as a new item', () => {
    expect(
      texts(mergeChecklist([{ text: 'Write', completed: true }], [{ text: 'Write it' }])),
    ).toEqual([{ text: 'Write it', completed: false }]);
  });

  it('matches each existing item once, so duplicates pair up in order', () => {
    const existing = [
      { id: 'a', text: 'Check', completed: true },
      { id: 'c', text: 'Check', completed: false },
    ];
    const merged = mergeChecklist(existing, [
      { text: 'Check' },
      { text: 'Check' },
      { text: 'Check' },
    ]);
    expect(merged.map((item) => [item.previous?.id, item.completed])).toEqual([
      ['a', true],
      ['c', false],
      [undefined, false],
    ]);
  });

  it('uses the flag the client sent when it sent one, and still takes the item over', () => {
    const existing = [{ id: 'a', text: 'Draft', completed: true }];
    const [merged] = mergeChecklist(existing, [{ text: 'Draft', completed: false }]);
    expect(merged).toMatchObject({ completed: false, previous: { id: 'a' } });
    expect(mergeChecklist([], [{ text: 'New', completed: true }])[0]?.completed).toBe(true);
  });

  it('an item naming an existing id takes it over whatever its text: a rename keeps its tick', () => {
    const existing = [
      { id: 'a', text: 'Draft', completed: true },
      { id: 'b', text: 'Review', completed: false },
    ];
    const merged = mergeChecklist(
      existing,
      [
        { _id: 'b', text: 'Draft' },
        { _id: 'a', text: 'First draft' },
        { _id: 'gone', text: 'New' },
      ],
      (item) => item.id,
    );
    // 'Draft' names b, so the text match does not steal a from the item that names it.
    expect(merged.map((item) => [item.previous?.id, item.text, item.completed])).toEqual([
      ['b', 'Draft', false],
      ['a', 'First draft', true],
      [undefined, 'New', false],
    ]);
    // Without idOf (the spec's clients), ids are ignored and texts match as before.
    expect(mergeChecklist(existing, [{ _id: 'b', text: 'Draft' }])[0]?.previous?.id).toBe('a');
  });

  it('starts every item open when there is nothing existing (create)', () => {
    expect(texts(mergeChecklist([], [{ text: 'One' }, { text: 'Two' }]))).toEqual([
      { text: 'One', completed: false },
      { text: 'Two', completed: false },
    ]);
  });
});

describe('changeStatus: a status change moves the checklist', () => {
  const flags = (list: ReadonlyArray<{ completed: boolean }>) => list.map((item) => item.completed);

  it.each(['Pending', 'In Progress', 'Completed'] as const)(
    'Completed ticks every item and Pending unticks every item, from %s',
    (from) => {
      const checklist = {
        Pending: items(0, 3),
        'In Progress': items(1, 3),
        Completed: items(3, 3),
      }[from];
      expect(changeStatus(checklist, 'Completed')).toEqual({
        allowed: true,
        items: items(3, 3),
        setsEveryFlag: true,
        state: { progress: 100, status: 'Completed', completedTodoCount: 3 },
      });
      expect(changeStatus(checklist, 'Pending')).toEqual({
        allowed: true,
        items: items(0, 3),
        setsEveryFlag: true,
        state: { progress: 0, status: 'Pending', completedTodoCount: 0 },
      });
    },
  );

  it('allows In Progress unless every item is done, leaving the flags (decision 007)', () => {
    const partly = [
      { id: 'a', completed: true },
      { id: 'b', completed: false },
    ];
    const change = changeStatus(partly, 'In Progress');
    expect(change).toEqual({
      allowed: true,
      items: partly,
      setsEveryFlag: false,
      state: { progress: 50, status: 'In Progress', completedTodoCount: 1 },
    });
    expect(changeStatus(items(0, 2), 'In Progress')).toEqual({
      allowed: true,
      items: items(0, 2),
      setsEveryFlag: false,
      state: { progress: 0, status: 'In Progress', completedTodoCount: 0 },
    });
    expect(changeStatus(items(2, 2), 'In Progress')).toEqual({ allowed: false });
  });

  it('keeps a started task In Progress through checklist writes that leave nothing done', () => {
    const started = { status: 'In Progress' as const, completedTodoCount: 0 };
    expect(checklistStateAfterWrite(started, items(0, 3))).toEqual({
      progress: 0,
      status: 'In Progress',
      completedTodoCount: 0,
    });
    expect(checklistStateAfterWrite(started, items(3, 3)).status).toBe('Completed');
    expect(checklistStateAfterWrite(started, items(1, 3)).status).toBe('In Progress');
    // A task that had items done and has none now is Pending again, as before.
    const partly = { status: 'In Progress' as const, completedTodoCount: 1 };
    expect(checklistStateAfterWrite(partly, items(0, 3)).status).toBe('Pending');
    const pending = { status: 'Pending' as const, completedTodoCount: 0 };
    expect(checklistStateAfterWrite(pending, items(0, 3)).status).toBe('Pending');
  });

  it('keeps what else the items hold and leaves the given list alone', () => {
    const checklist = [{ id: 'a', text: 'Draft', completed: false }];
    const change = changeStatus(checklist, 'Completed');
    expect(change.allowed && change.items).toEqual([{ id: 'a', text: 'Draft', completed: true }]);
    expect(flags(checklist)).toEqual([false]);
  });

  it.each([
    ['Pending', 0],
    ['In Progress', 0],
    ['Completed', 100],
  ] as const)('lets a task with no checklist take %s as asked, at %i%%', (status, progress) => {
    expect(changeStatus([], status)).toEqual({
      allowed: true,
      items: [],
      setsEveryFlag: status !== 'In Progress',
      state: { progress, status, completedTodoCount: 0 },
    });
  });
});
