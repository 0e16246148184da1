/** Every route of the app, in one table (spec section 2): links and redirects use these. */
export const paths = {
  root: '/',
  login: '/login',
  signup: '/signup',
  admin: {
    dashboard: '/admin/dashboard',
    tasks: '/admin/tasks',
    createTask: '/admin/create-task',
    users: '/admin/users',
  },
  user: {
    dashboard: '/user/dashboard',
    tasks: '/user/tasks',
    taskDetails: (id: string) => `/user/task-details/${encodeURIComponent(id)}`,
  },
} as const;

export type Role = 'admin' | 'member';

/** Where a signed-in person lands: admins on their dashboard, everyone else on theirs. */
export function homePathFor(role: string | undefined): string {
  return role === 'admin' ? paths.admin.dashboard : paths.user.dashboard;
}
