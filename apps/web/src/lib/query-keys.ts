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
  /**
   * One tab of the task list; `undefined` is the All tab. `filters` are the list's other query
   * parameters (search, assignee, priority, label, due, sort, order), none for the plain list.
   */
  list: (status: TaskStatus | undefined, filters: Record<string, string> = {}) =>
    [...taskKeys.lists(), status ?? 'All', filters] as const,
  /** The tasks due in one month (the calendar). */
  month: (month: string) => [...taskKeys.all, 'month', month] as const,
  /** How many tasks carry a label (asked before it is deleted). */
  withLabel: (labelId: string) => [...taskKeys.all, 'with-label', labelId] as const,
  /** Tasks found by the command palette's search. */
  search: (q: string) => [...taskKeys.all, 'search', q] as const,
  detail: (id: string) => [...taskKeys.all, 'detail', id] as const,
  /** A task's comments, history and the people who can see it (the task page's timeline). */
  comments: (id: string) => [...taskKeys.all, 'comments', id] as const,
  activity: (id: string) => [...taskKeys.all, 'activity', id] as const,
  people: (id: string) => [...taskKeys.all, 'people', id] as const,
};

const dashboardKeys = {
  all: ['dashboard'] as const,
  admin: () => [...dashboardKeys.all, 'admin'] as const,
  user: () => [...dashboardKeys.all, 'user'] as const,
};

/** Labels tasks carry: shared by the whole team, managed by admins. */
const labelKeys = {
  all: ['labels'] as const,
};

const userKeys = {
  all: ['users'] as const,
  lists: () => [...userKeys.all, 'list'] as const,
  /** The members whose name or e-mail contains `search` (every member when empty). */
  list: (search: string, filters: { role?: string; active?: boolean } = {}) =>
    [...userKeys.lists(), search, filters] as const,
};

/** The signed-in person's notifications (the bell): the pages of the list and the unread count. */
const notificationKeys = {
  all: ['notifications'] as const,
  list: (unreadOnly: boolean) => [...notificationKeys.all, 'list', { unreadOnly }] as const,
  unreadCount: () => [...notificationKeys.all, 'unread-count'] as const,
};

export const queryKeys = {
  /** The signed-in person, or null: the session (lib/session.tsx). */
  profile: ['auth', 'profile'] as const,
  /** How this server lets people in (sign-up mode, password reset by e-mail). */
  authOptions: ['auth', 'options'] as const,
  /** The sign-up settings and the invitations (admins). */
  settings: ['settings'] as const,
  invites: ['invites'] as const,
  /** The team's recent activity across tasks (admin dashboard). */
  activity: ['tasks', 'team-activity'] as const,
  /** What one invitation link grants (public, for the sign-up page). */
  inviteLookup: (token: string | null) => ['invite-lookup', token] as const,
  tasks: taskKeys,
  dashboard: dashboardKeys,
  users: userKeys,
  labels: labelKeys,
  notifications: notificationKeys,
  /** Which notifications this person wants by e-mail (not moved by new notifications). */
  notificationPreferences: ['notification-preferences'] as const,
  /** The person's secret calendar feed address. */
  calendarFeed: ['calendar-feed'] as const,
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
  /** A person's own name, photo or e-mail: shown on cards, task assignees and the team page. */
  profileChange: [taskKeys.all, dashboardKeys.all, userKeys.all],
  /** An admin changed, deactivated or deleted someone: their tasks may have moved too. */
  memberChange: [taskKeys.all, dashboardKeys.all, userKeys.all],
  /** A label added, renamed, recoloured or deleted: tasks show their labels by name. */
  labelChange: [labelKeys.all, taskKeys.all],
} as const satisfies Record<string, readonly QueryKey[]>;

export type DataChange = keyof typeof staleAfter;
