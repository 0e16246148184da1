import { describe, expect, it } from 'vitest';
import { dueStateOf } from './due-state';

const NOW = Date.parse('2031-06-15T12:00:00.000Z');

describe('dueStateOf', () => {
  it('marks an open task due before now as overdue', () => {
    expect(dueStateOf({ dueDate: '2031-06-15T00:00:00.000Z', status: 'Pending' }, NOW)).toBe(
      'overdue',
    );
    expect(dueStateOf({ dueDate: '2031-01-01T00:00:00.000Z', status: 'In Progress' }, NOW)).toBe(
      'overdue',
    );
  });

  it('never marks a completed task', () => {
    expect(dueStateOf({ dueDate: '2031-01-01T00:00:00.000Z', status: 'Completed' }, NOW)).toBe(
      'none',
    );
  });

  it('marks an open task due within two days as soon', () => {
    expect(dueStateOf({ dueDate: '2031-06-16T00:00:00.000Z', status: 'Pending' }, NOW)).toBe(
      'soon',
    );
    expect(dueStateOf({ dueDate: '2031-06-17T00:00:00.000Z', status: 'Pending' }, NOW)).toBe(
      'soon',
    );
    expect(dueStateOf({ dueDate: '2031-06-18T00:00:00.000Z', status: 'Pending' }, NOW)).toBe(
      'none',
    );
  });

  it('leaves a task without a due date alone', () => {
    expect(dueStateOf({ dueDate: null, status: 'Pending' }, NOW)).toBe('none');
  });
});
