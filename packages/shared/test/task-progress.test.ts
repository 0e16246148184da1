import { describe, expect, it } from 'vitest';
import { progressOf, statusOf } from '../src/task-progress.js';

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
});
