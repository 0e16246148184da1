import type { TaskStatus } from './schemas/task.js';

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
