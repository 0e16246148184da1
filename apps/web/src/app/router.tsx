import { createBrowserRouter, Navigate, Outlet } from 'react-router-dom';
import { Spinner } from '../components/ui/feedback';
import { paths } from '../config/paths';
import { SessionProvider } from '../lib/session';
import { AuthLayout } from './layouts/auth-layout';
import { DashboardLayout } from './layouts/dashboard-layout';
import { NotFoundPage } from './not-found-page';
import { GuestOnly, RequireRole, RootRedirect } from './route-guard';
import { RouteError } from './route-error';

// Every page is its own chunk: the first visit loads only the page it opens.
export const router = createBrowserRouter([
  {
    element: (
      <SessionProvider>
        <Outlet />
      </SessionProvider>
    ),
    errorElement: <RouteError />,
    // Shown while the first page's chunk loads.
    hydrateFallbackElement: <Spinner label="Loading..." />,
    children: [
      { path: paths.root, element: <RootRedirect /> },
      {
        element: (
          <GuestOnly>
            <AuthLayout />
          </GuestOnly>
        ),
        children: [
          {
            path: paths.login,
            lazy: async () => ({
              Component: (await import('../features/auth/pages/login-page')).LoginPage,
            }),
          },
          {
            path: paths.signup,
            lazy: async () => ({
              Component: (await import('../features/auth/pages/signup-page')).SignUpPage,
            }),
          },
        ],
      },
      // The spec writes the sign-up route as /signUp in one place.
      { path: '/signUp', element: <Navigate to={paths.signup} replace /> },
      {
        element: (
          <RequireRole role="admin">
            <DashboardLayout />
          </RequireRole>
        ),
        children: [
          {
            path: paths.admin.dashboard,
            lazy: async () => ({
              Component: (await import('../features/dashboard/pages/admin-dashboard-page'))
                .AdminDashboardPage,
            }),
          },
          {
            path: paths.admin.tasks,
            lazy: async () => ({
              Component: (await import('../features/tasks/pages/manage-tasks-page'))
                .ManageTasksPage,
            }),
          },
          {
            path: paths.admin.createTask,
            lazy: async () => ({
              Component: (await import('../features/tasks/pages/create-task-page')).CreateTaskPage,
            }),
          },
          {
            path: paths.admin.users,
            lazy: async () => ({
              Component: (await import('../features/users/pages/team-members-page'))
                .TeamMembersPage,
            }),
          },
        ],
      },
      {
        element: (
          <RequireRole role="member">
            <DashboardLayout />
          </RequireRole>
        ),
        children: [
          {
            path: paths.user.dashboard,
            lazy: async () => ({
              Component: (await import('../features/dashboard/pages/user-dashboard-page'))
                .UserDashboardPage,
            }),
          },
          {
            path: paths.user.tasks,
            lazy: async () => ({
              Component: (await import('../features/tasks/pages/my-tasks-page')).MyTasksPage,
            }),
          },
          {
            path: '/user/task-details/:id',
            lazy: async () => ({
              Component: (await import('../features/tasks/pages/task-details-page'))
                .TaskDetailsPage,
            }),
          },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
