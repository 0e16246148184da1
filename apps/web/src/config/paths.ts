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
  admin: {
    dashboard: '/admin/dashboard',
    tasks: '/admin/tasks',
    /** Also the edit form: the task's id comes in navigation state ({ taskId }). */
    createTask: '/admin/create-task',
    users: '/admin/users',
  },
  user: {
    dashboard: '/user/dashboard',
    tasks: '/user/tasks',
    taskDetails: {
      pattern: '/user/task-details/:id',
      to: (id: string) => paths.user.taskDetails.pattern.replace(':id', encodeURIComponent(id)),
    },
  },
} as const;

export type Role = 'admin' | 'member';

/** Where a signed-in person lands: admins on their dashboard, everyone else on theirs. */
export function homePathFor(role: string | undefined): string {
  return role === 'admin' ? paths.admin.dashboard : paths.user.dashboard;
}
