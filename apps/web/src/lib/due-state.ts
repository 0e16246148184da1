/** How a task's due date stands: past and still open, close, or neither. */
export type DueState = 'overdue' | 'soon' | 'none';

/** "Due soon": an open task due within the next two days. */
export const DUE_SOON_MS = 2 * 24 * 60 * 60 * 1000;

/**
 * The same rule as the API's `due=overdue` filter and the dashboards' overdue count: a task is
 * overdue once its due date is before now and it is not Completed. An open task due within two
 * days is "soon" (amber); a completed task is never marked.
 */
export function dueStateOf(
  task: { dueDate: string | null | undefined; status: string },
  now: number = Date.now(),
): DueState {
  if (!task.dueDate || task.status === 'Completed') return 'none';
  const due = Date.parse(task.dueDate);
  if (Number.isNaN(due)) return 'none';
  if (due < now) return 'overdue';
  if (due - now <= DUE_SOON_MS) return 'soon';
  return 'none';
}
