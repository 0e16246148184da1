import {
  TASK_DUE_FILTERS,
  TASK_PRIORITIES,
  TASK_SORTS,
  TASK_STATUSES,
  type TaskDueFilter,
  type TaskPriority,
  type TaskSort,
} from '@task-manager/shared';
import type { TaskStatusFilter } from './api/get-tasks';

/**
 * What a task list shows: the status tab and the filter bar. It lives in the URL's query string
 * (`?status=Pending&q=deploy&priority=High,Medium&due=week&sort=dueDate`), so a link or the back
 * button brings the same view back; the API takes the same names.
 */
export interface TaskFilters {
  status: TaskStatusFilter;
  /** Words to search for ('' for none). */
  q: string;
  /** A person's id, 'me', or '' for everyone (admins only). */
  assignee: string;
  priority: TaskPriority[];
  /** Label ids. */
  label: string[];
  due: TaskDueFilter | '';
  sort: TaskSort;
  /** '' is the sort's own default order. */
  order: 'asc' | 'desc' | '';
}

export const DEFAULT_FILTERS: TaskFilters = {
  status: 'All',
  q: '',
  assignee: '',
  priority: [],
  label: [],
  due: '',
  sort: 'createdAt',
  order: '',
};

/** The message key of each due choice (t() checks that each exists). */
export const DUE_LABELS = {
  overdue: 'filters.dueOverdue',
  today: 'filters.dueToday',
  week: 'filters.dueWeek',
  later: 'filters.dueLater',
} as const satisfies Record<TaskDueFilter, `filters.${string}`>;

/** The message key of each sort (t() checks that each exists). */
export const SORT_LABELS = {
  createdAt: 'filters.sortCreatedAt',
  dueDate: 'filters.sortDueDate',
  priority: 'filters.sortPriority',
  title: 'filters.sortTitle',
  updatedAt: 'filters.sortUpdatedAt',
} as const satisfies Record<TaskSort, `filters.${string}`>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function oneOf<T extends string>(values: readonly T[], value: string | null): T | undefined {
  return values.find((candidate) => candidate === value);
}

function commaList(value: string | null): string[] {
  if (!value) return [];
  return [...new Set(value.split(',').map((entry) => entry.trim()))].filter(Boolean);
}

/** The view a query string asks for; anything unknown (an old or hand-edited link) is left out. */
export function filtersFromSearch(search: URLSearchParams): TaskFilters {
  const assignee = search.get('assignee') ?? '';
  return {
    status: oneOf(TASK_STATUSES, search.get('status')) ?? 'All',
    q: (search.get('q') ?? '').slice(0, 500),
    assignee: assignee === 'me' || UUID.test(assignee) ? assignee : '',
    priority: commaList(search.get('priority')).filter((value): value is TaskPriority =>
      TASK_PRIORITIES.includes(value as TaskPriority),
    ),
    label: commaList(search.get('label')).filter((value) => UUID.test(value)),
    due: oneOf(TASK_DUE_FILTERS, search.get('due')) ?? '',
    sort: oneOf(TASK_SORTS, search.get('sort')) ?? 'createdAt',
    order: oneOf(['asc', 'desc'] as const, search.get('order')) ?? '',
  };
}

/**
 * The query parameters of a view, defaults left out (so the plain list keeps a plain URL and
 * the API request it always had). Shared by the page's URL and the API request.
 */
export function filterParams(filters: TaskFilters): Record<string, string> {
  const params: Record<string, string> = {};
  if (filters.status !== 'All') params.status = filters.status;
  if (filters.q.trim()) params.q = filters.q.trim();
  if (filters.assignee) params.assignee = filters.assignee;
  if (filters.priority.length) params.priority = filters.priority.join(',');
  if (filters.label.length) params.label = filters.label.join(',');
  if (filters.due) params.due = filters.due;
  if (filters.sort !== 'createdAt') params.sort = filters.sort;
  if (filters.order) params.order = filters.order;
  return params;
}

/**
 * What GET /api/tasks is sent for a view: its parameters and, for today and this week, the
 * caller's time zone (those are the caller's own days).
 */
export function apiParams(filters: TaskFilters): Record<string, string> {
  const params = filterParams(filters);
  if (filters.due && filters.due !== 'overdue') params.tz = browserTimeZone();
  return params;
}

/** The query string of a view ('' for the plain list). */
export function searchFromFilters(filters: TaskFilters): string {
  const query = new URLSearchParams(filterParams(filters)).toString();
  return query ? `?${query}` : '';
}

/** True when anything beyond the status tab narrows the list. */
export function isFiltered(filters: TaskFilters): boolean {
  return Boolean(
    filters.q.trim() ||
    filters.assignee ||
    filters.priority.length ||
    filters.label.length ||
    filters.due,
  );
}

/** The caller's time zone (IANA), which `due=today|week` is counted in. */
function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}
