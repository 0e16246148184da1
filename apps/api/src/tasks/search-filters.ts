import { sql } from 'kysely';
import { z } from 'zod';
import {
  TASK_SORTS,
  validationMessages,
  type TaskDueFilter,
  type TaskPriority,
  type TaskSort,
  type TaskStatus,
} from '@task-manager/shared';
import { BadRequest } from '../errors.js';
import { decodeCursor, encodeCursor, taskCursorShape } from '../http/cursor.js';

/**
 * The due-date windows of the task list's `due` filter:
 * - overdue: due before now, and not Completed (the dashboards' overdue count, spec section 3);
 * - today: due on today's date;
 * - week: due on today's date or one of the next 6;
 * - later: due on a date after the week.
 * "Today" is the date it is now in the caller's time zone (`tz`). A due date is a calendar day
 * (the web app sends midnight UTC of the chosen day and shows every due date by its UTC day), so
 * the day of a due date is its UTC date, wherever the caller is: in Los Angeles on the evening of
 * the 28th, "today" is the tasks shown as due on the 28th, not those of the 29th that are
 * already past midnight UTC. As ISO-8601 UTC bounds, which compare with stored due dates as text
 * (fixed-width ISO).
 */
export interface DueWindow {
  from?: string;
  before?: string;
  openOnly?: boolean;
}

/** The statuses of a task not done: what `overdue` (DueWindow.openOnly) keeps. */
export const OPEN_STATUSES: TaskStatus[] = ['Pending', 'In Progress'];

/**
 * The earliest of the `next_due` column of counted rows (each group's earliest open due date not
 * yet past when counted), or null when none has one. ISO instants compare as text.
 */
export function earliestNextDue(rows: ReadonlyArray<{ next_due: string | null }>): string | null {
  const later = rows.map((row) => row.next_due).filter((due): due is string => due !== null);
  return later.length > 0 ? later.reduce((a, b) => (a < b ? a : b)) : null;
}

/**
 * Whether overdue counts made at `counted`, whose earliest open due date not yet past was
 * `nextDue`, still hold at `now` (a later instant): nothing fell due in [counted, now). Without a
 * write, that is the only way they change.
 */
export const overdueCountsHold = (counted: string, nextDue: string | null, now: string) =>
  counted <= now && (nextDue === null || now <= nextDue);

/**
 * Priority as a rank to sort by (High 3, Medium 2, Low 1), of the priority column `column`
 * (`tasks.priority`, or a search key's copy): on `tasks` it must stay exactly as migration
 * 2026-11-26-203 indexes it.
 */
export const priorityRank = (column: string) =>
  sql<number>`(case ${sql.ref(column)} when 'High' then 3 when 'Medium' then 2 else 1 end)`;

/** Each priority's rank, as priorityRank computes it in SQL. */
export const PRIORITY_RANKS: Record<TaskPriority, number> = { High: 3, Medium: 2, Low: 1 };

/**
 * The ranks of `priorities`, as a list for `rank in (…)`: a range of a rank-ordered index read in
 * its order. One rank is listed twice: for a lone `rank = ?` SQLite plans a sort of the range.
 */
export function priorityRanks(priorities: readonly TaskPriority[]): number[] {
  const ranks = priorities.map((priority) => PRIORITY_RANKS[priority]);
  return ranks.length === 1 ? [ranks[0]!, ranks[0]!] : ranks;
}

export function dueWindow(due: TaskDueFilter, timeZone: string, now = new Date()): DueWindow {
  if (due === 'overdue') return { before: now.toISOString(), openOnly: true };
  const { year, month, day } = dateIn(timeZone, now.getTime());
  // Date.UTC rolls an overflowing day on into the next month (and year).
  const dayStart = (offset: number) =>
    new Date(Date.UTC(year, month - 1, day + offset)).toISOString();
  if (due === 'today') return { from: dayStart(0), before: dayStart(1) };
  if (due === 'week') return { from: dayStart(0), before: dayStart(7) };
  return { from: dayStart(7) };
}

/**
 * The due-date window of a list request: its `due` window (if any) narrowed to
 * [`dueFrom`, `dueBefore`) (each optional); undefined when nothing limits the due date.
 */
export function dueRange(
  window: DueWindow | undefined,
  dueFrom: string | undefined,
  dueBefore: string | undefined,
): DueWindow | undefined {
  if (dueFrom === undefined && dueBefore === undefined) return window;
  const later = (a?: string, b?: string) => (a === undefined || (b !== undefined && b > a) ? b : a);
  const earlier = (a?: string, b?: string) =>
    a === undefined || (b !== undefined && b < a) ? b : a;
  return {
    ...window,
    from: later(window?.from, dueFrom),
    before: earlier(window?.before, dueBefore),
  };
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The calendar date it is in `timeZone` at `epochMs`. */
function dateIn(timeZone: string, epochMs: number) {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
    });
    formatters.set(timeZone, format);
  }
  const parts = Object.fromEntries(
    format.formatToParts(new Date(epochMs)).map((part) => [part.type, Number(part.value)]),
  );
  return { year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1 };
}

/** The order a sort lists in when `order` is not sent: the one people expect of each. */
export const DEFAULT_ORDER: Record<TaskSort, 'asc' | 'desc'> = {
  createdAt: 'desc',
  updatedAt: 'desc',
  dueDate: 'asc',
  priority: 'desc',
  title: 'asc',
};

/**
 * The cursor of a sorted page: the sort key of the last task shown (for priority: its rank and
 * creation time) and its id. The default order (newest first) keeps the list's original cursor,
 * the pair [createdAt, id]; any other also names the sort and order it was made for, and is only
 * good for those.
 */
export type TaskPageKey = readonly [sortKey: string | number, ...rest: string[]];

const keyShape = z.union([
  z.tuple([
    z.literal('priority'),
    z.enum(['asc', 'desc']),
    z.int().min(1).max(3),
    z.string().min(1).max(64),
    z.uuid(),
  ]),
  z.tuple([z.enum(TASK_SORTS), z.enum(['asc', 'desc']), z.string().max(2000), z.uuid()]),
]);

const isDefaultOrder = (sort: TaskSort, order: 'asc' | 'desc') =>
  sort === 'createdAt' && order === 'desc';

export function encodePageCursor(sort: TaskSort, order: 'asc' | 'desc', key: TaskPageKey): string {
  if (isDefaultOrder(sort, order)) return encodeCursor([String(key[0]), String(key[1])]);
  return Buffer.from(JSON.stringify([sort, order, ...key])).toString('base64url');
}

export function decodePageCursor(
  cursor: string,
  sort: TaskSort,
  order: 'asc' | 'desc',
): TaskPageKey {
  if (isDefaultOrder(sort, order)) return decodeCursor(cursor, taskCursorShape);
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    decoded = undefined;
  }
  const result = keyShape.safeParse(decoded);
  // A forged cursor could carry a NUL, which PostgreSQL refuses in a query.
  const valid =
    result.success &&
    result.data[0] === sort &&
    result.data[1] === order &&
    (sort === 'priority') === (result.data.length === 5) &&
    !JSON.stringify(result.data).includes('\\u0000');
  if (!valid) {
    const message = validationMessages.invalidCursor;
    throw BadRequest(message, [{ path: 'cursor', message }]);
  }
  const [, , ...key] = result.data;
  return key as unknown as TaskPageKey;
}
