import type { TaskStatus } from '@task-manager/shared';
import type { QueryKey } from '@tanstack/react-query';

/**
 * Every query key of the app, from one factory, and what each kind of change makes stale. The
 * keys name the API's resources (tasks, users, dashboards), not the features that show them, so
 * a feature's mutation can say what went stale without importing another feature.
 */

const taskKeys = {
  all: ['tasks'] as const,
  lists: () => [...taskKeys.all, 'list'] as const,
  /** One tab of the task list; `undefined` is the All tab. */
  list: (status: TaskStatus | undefined) => [...taskKeys.lists(), status ?? 'All'] as const,
  detail: (id: string) => [...taskKeys.all, 'detail', id] as const,
};

const dashboardKeys = {
  all: ['dashboard'] as const,
  admin: () => [...dashboardKeys.all, 'admin'] as const,
  user: () => [...dashboardKeys.all, 'user'] as const,
};

const userKeys = {
  all: ['users'] as const,
  lists: () => [...userKeys.all, 'list'] as const,
  /** The members whose name or e-mail contains `search` (every member when empty). */
  list: (search: string) => [...userKeys.lists(), search] as const,
};

export const queryKeys = {
  /** The signed-in person, or null: the session (lib/session.tsx). */
  profile: ['auth', 'profile'] as const,
  tasks: taskKeys,
  dashboard: dashboardKeys,
  users: userKeys,
};

export const mutationKeys = {
  /** One checklist item ticked or unticked: the task is refreshed once none is on its way. */
  checklistItem: ['tasks', 'checklist-item'] as const,
};

/**
 * What each kind of change makes stale: the one table mutations go through (invalidateAfter).
 * A task change moves the task lists and details, every dashboard (they count tasks) and the
 * team members' task counts.
 */
export const staleAfter = {
  taskChange: [taskKeys.all, dashboardKeys.all, userKeys.all],
} as const satisfies Record<string, readonly QueryKey[]>;

export type DataChange = keyof typeof staleAfter;
