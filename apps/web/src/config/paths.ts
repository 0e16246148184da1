/**
 * Every route of the app, in one table (spec section 2): the router, links and redirects use
 * these. A route with a parameter gives its `pattern` for the router and `to(...)` for links.
 */
export const paths = {
  root: '/',
  login: '/login',
  signup: '/signup',
  /** The spec writes the sign-up route as /signUp in one place: it redirects to `signup`. */
  signupAlias: '/signUp',
  forgotPassword: '/forgot-password',
  /** A single-use link to set a new password: `?token=...`. */
  resetPassword: '/reset-password',
  /** The signed-in person's own account, for every role. */
  profile: '/profile',
  admin: {
    dashboard: '/admin/dashboard',
    tasks: '/admin/tasks',
    /** Also the edit form: the task's id comes in navigation state ({ taskId }). */
    createTask: '/admin/create-task',
    /** One task's page (a read view with Edit): every task has its own link. */
    taskPage: {
      pattern: '/admin/tasks/:id',
      to: (id: string) => paths.admin.taskPage.pattern.replace(':id', encodeURIComponent(id)),
    },
    /** The edit form of one task, by link. */
    editTask: {
      pattern: '/admin/tasks/:id/edit',
      to: (id: string) => paths.admin.editTask.pattern.replace(':id', encodeURIComponent(id)),
    },
    /** Every task in a column per status. */
    board: '/admin/board',
    /** A month of tasks by due date. */
    calendar: '/admin/calendar',
    /** The labels tasks can carry: add, rename, recolour, delete. */
    labels: '/admin/labels',
    users: '/admin/users',
    /** Sign-up mode, the admin invite code and invitation links. */
    settings: '/admin/settings',
  },
  user: {
    dashboard: '/user/dashboard',
    tasks: '/user/tasks',
    taskDetails: {
      pattern: '/user/task-details/:id',
      to: (id: string) => paths.user.taskDetails.pattern.replace(':id', encodeURIComponent(id)),
    },
    board: '/user/board',
    calendar: '/user/calendar',
  },
} as const;

export type Role = 'admin' | 'member';

/** Where a task opens for this role: the admin's task page or the member's details page. */
export function taskPathFor(role: string | undefined, id: string): string {
  return role === 'admin' ? paths.admin.taskPage.to(id) : paths.user.taskDetails.to(id);
}

/** Where a signed-in person lands: admins on their dashboard, everyone else on theirs. */
export function homePathFor(role: string | undefined): string {
  return role === 'admin' ? paths.admin.dashboard : paths.user.dashboard;
}

/**
 * Where signing in leads: back to the page a link opened while signed out asked for (its
 * filters too, e.g. a shared `/admin/tasks?q=deploy`), when it is one of this person's pages
 * (their role's, or the profile); the dashboard otherwise, as the spec says. `from` is what the
 * route guards put in the sign-in page's navigation state.
 */
export function afterSignInPath(role: string | undefined, from: unknown): string {
  if (typeof from === 'string' && from.startsWith('/') && !from.startsWith('//')) {
    const area = role === 'admin' ? '/admin/' : '/user/';
    const pathname = from.split(/[?#]/)[0]!;
    if (pathname.startsWith(area) || pathname === paths.profile) return from;
  }
  return homePathFor(role);
}

/**
 * Where signing in again leads back to (afterSignInPath), from where the person is: this page,
 * filters included. The edit form opened the spec's way (/admin/create-task, the task's id in
 * navigation state, which does not outlive the sign-in) comes back at its own address, where a
 * draft kept as the session ended is given back.
 */
export function returnPathOf(location: {
  pathname: string;
  search: string;
  hash: string;
  state: unknown;
}): string {
  const { pathname, search, hash, state } = location;
  const taskId = (state as { taskId?: unknown } | null)?.taskId;
  if (pathname === paths.admin.createTask && typeof taskId === 'string' && taskId) {
    return paths.admin.editTask.to(taskId);
  }
  return pathname + search + hash;
}

/** The navigation state's `from` (see afterSignInPath), if any. */
export const fromOf = (state: unknown): unknown =>
  typeof state === 'object' && state !== null && 'from' in state ? state.from : undefined;
