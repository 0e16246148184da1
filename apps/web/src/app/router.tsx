import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useEffect, useRef } from 'react';
import { matchPath, Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { Spinner } from '../components/ui/feedback';
import { homePathFor, paths, type Role } from '../config/paths';
import { useT, withAppTexts } from '../lib/i18n';
import { CommandPalette } from '../features/command-palette/components/command-palette';
import {
  adminDashboardQueryOptions,
  getAdminDashboard,
} from '../features/dashboard/api/get-admin-dashboard';
import {
  getUserDashboard,
  userDashboardQueryOptions,
} from '../features/dashboard/api/get-user-dashboard';
import { getStoredRole, getStoredToken } from '../lib/api-client';
import { useSession } from '../lib/session';
import { AuthLayout } from './layouts/auth-layout';
import { RouteFallback } from './layouts/frame-skeleton';
import { NotFoundPage } from './not-found-page';
import { lazyPage as page } from './lazy-page';
import { RouteErrorBoundary } from './route-error';
import { GuestOnly, RequireRole, RequireSignedIn, RootRedirect } from './route-guard';

// Every page is its own chunk: the first visit loads only the page it opens. The signed-in frame
// (menu, icons, avatar) is one too, so /login draws without it.
// The frame waits for the English texts of the signed-in screens, so every page inside has them.
const DashboardLayout = page(
  () => withAppTexts(import('./layouts/dashboard-layout')),
  'DashboardLayout',
);
const LoginPage = page(() => import('../features/auth/pages/login-page'), 'LoginPage');
const SignUpPage = page(() => import('../features/auth/pages/signup-page'), 'SignUpPage');
const ForgotPasswordPage = page(
  () => import('../features/auth/pages/forgot-password-page'),
  'ForgotPasswordPage',
);
const ResetPasswordPage = page(
  () => import('../features/auth/pages/reset-password-page'),
  'ResetPasswordPage',
);
const ProfilePage = page(() => import('./profile-route'), 'ProfileRoute');
const SettingsPage = page(() => import('../features/settings/pages/settings-page'), 'SettingsPage');
const AdminDashboardPage = page(
  () => import('../features/dashboard/pages/admin-dashboard-page'),
  'AdminDashboardPage',
);
const ManageTasksPage = page(
  () => import('../features/tasks/pages/manage-tasks-page'),
  'ManageTasksPage',
);
const CreateTaskPage = page(
  () => import('../features/tasks/pages/create-task-page'),
  'CreateTaskPage',
);
const AdminTaskPage = page(
  () => import('../features/tasks/pages/admin-task-page'),
  'AdminTaskPage',
);
const EditTaskPage = page(() => import('../features/tasks/pages/admin-task-page'), 'EditTaskPage');
const BoardPage = page(() => import('./board-route'), 'BoardRoute');
const CalendarPage = page(() => import('../features/calendar/pages/calendar-page'), 'CalendarPage');
const LabelsPage = page(() => import('../features/labels/pages/labels-page'), 'LabelsPage');
const TeamMembersPage = page(
  () => import('../features/users/pages/team-members-page'),
  'TeamMembersPage',
);
const UserDashboardPage = page(
  () => import('../features/dashboard/pages/user-dashboard-page'),
  'UserDashboardPage',
);
const MyTasksPage = page(() => import('../features/tasks/pages/my-tasks-page'), 'MyTasksPage');
const TaskDetailsPage = page(
  () => import('../features/tasks/pages/task-details-page'),
  'TaskDetailsPage',
);

/** The chunks each route shows, for preloadRoute (the routes below, in the same order). */
const routeChunks: Array<[pattern: string, chunks: Array<{ preload: () => Promise<unknown> }>]> = [
  [paths.login, [LoginPage]],
  [paths.signup, [SignUpPage]],
  [paths.forgotPassword, [ForgotPasswordPage]],
  [paths.resetPassword, [ResetPasswordPage]],
  [paths.profile, [DashboardLayout, ProfilePage]],
  [paths.admin.dashboard, [DashboardLayout, AdminDashboardPage]],
  [paths.admin.tasks, [DashboardLayout, ManageTasksPage]],
  [paths.admin.createTask, [DashboardLayout, CreateTaskPage]],
  [paths.admin.editTask.pattern, [DashboardLayout, EditTaskPage]],
  [paths.admin.taskPage.pattern, [DashboardLayout, AdminTaskPage]],
  [paths.admin.board, [DashboardLayout, BoardPage]],
  [paths.admin.calendar, [DashboardLayout, CalendarPage]],
  [paths.admin.labels, [DashboardLayout, LabelsPage]],
  [paths.admin.users, [DashboardLayout, TeamMembersPage]],
  [paths.admin.settings, [DashboardLayout, SettingsPage]],
  [paths.user.dashboard, [DashboardLayout, UserDashboardPage]],
  [paths.user.tasks, [DashboardLayout, MyTasksPage]],
  [paths.user.taskDetails.pattern, [DashboardLayout, TaskDetailsPage]],
  [paths.user.board, [DashboardLayout, BoardPage]],
  [paths.user.calendar, [DashboardLayout, CalendarPage]],
];

/**
 * Starts loading the chunks of the page the app opens on at once, alongside the session check:
 * otherwise the guard's spinner holds them back until the profile has come back.
 */
export function preloadRoute(pathname: string): void {
  const chunks = routeChunks.find(([pattern]) => matchPath(pattern, pathname))?.[1] ?? [];
  for (const chunk of chunks) {
    chunk.preload().catch(() => {
      // The page shows the failure (RouteError) when it renders and loads the chunk again.
    });
  }
}

/**
 * Before the session check answers: the role this browser's last session had (getStoredRole),
 * when the app opens on that role's own dashboard.
 */
function rememberedRoleAt(pathname: string): Role | null {
  if (!getStoredToken()) return null;
  const role = getStoredRole();
  if (role !== 'admin' && role !== 'member') return null;
  return pathname === homePathFor(role) ? role : null;
}

/**
 * On a dashboard, starts its data at once, alongside the page's chunks (the charts' recharts
 * chunk comes with them), instead of once they have loaded and the page has rendered. The page's
 * useQuery then finds this request under the same query key and waits for it rather than sending
 * another.
 *
 * Opening the app on the dashboard of the role this browser last signed in with, the data goes out
 * alongside the session check rather than after it (a round trip less on a slow link). On any
 * other page, or with no role remembered, it waits for the check.
 */
function usePrefetchDashboard(pathname: string): void {
  const { user, loading } = useSession();
  const queryClient = useQueryClient();
  // What was last asked for (role and path): the session check answering must not ask again.
  const prefetched = useRef<string | null>(null);
  useEffect(() => {
    const role = user
      ? pathname === homePathFor(user.role)
        ? user.role
        : null
      : loading
        ? rememberedRoleAt(pathname)
        : null;
    const wanted = role && `${role} ${pathname}`;
    if (wanted === prefetched.current) return;
    prefetched.current = wanted;
    if (!role) return;
    preloadRoute(pathname);
    const options = { beforeSessionCheck: !user };
    if (role === 'admin') {
      void queryClient.prefetchQuery({
        ...adminDashboardQueryOptions(),
        queryFn: () => getAdminDashboard(options),
      });
    } else {
      void queryClient.prefetchQuery({
        ...userDashboardQueryOptions(),
        queryFn: () => getUserDashboard(options),
      });
    }
  }, [user, loading, pathname, queryClient]);
}

/**
 * The app's routes, declared as components rather than with createBrowserRouter: the app loads
 * no data through the router, and the data router alone would add ~17 KB gzipped to the first
 * load of every page.
 */
export function AppRoutes() {
  const { pathname } = useLocation();
  const t = useT();
  usePrefetchDashboard(pathname);
  return (
    // A page that failed does not keep the next one from showing.
    <RouteErrorBoundary resetKey={pathname}>
      {/* Ctrl/Cmd+K anywhere once signed in: jump to a task or a page. */}
      <CommandPalette />
      {/* Shown while the first page's chunk loads (a signed-in page: the frame's skeleton); inside
          the frame, DashboardLayout shows the page's skeleton while a page's chunk loads. */}
      <Suspense fallback={<RouteFallback signedOut={<Spinner label={t('common.loading')} />} />}>
        <Routes>
          <Route path={paths.root} element={<RootRedirect />} />
          <Route
            element={
              <GuestOnly>
                <AuthLayout />
              </GuestOnly>
            }
          >
            <Route path={paths.login} element={<LoginPage />} />
            <Route path={paths.signup} element={<SignUpPage />} />
            <Route path={paths.forgotPassword} element={<ForgotPasswordPage />} />
          </Route>
          {/* A reset link works whoever is signed in on this browser. */}
          <Route element={<AuthLayout />}>
            <Route path={paths.resetPassword} element={<ResetPasswordPage />} />
          </Route>
          <Route
            element={
              <RequireSignedIn>
                <DashboardLayout />
              </RequireSignedIn>
            }
          >
            <Route path={paths.profile} element={<ProfilePage />} />
          </Route>
          <Route path={paths.signupAlias} element={<Navigate to={paths.signup} replace />} />
          <Route
            element={
              <RequireRole role="admin">
                <DashboardLayout />
              </RequireRole>
            }
          >
            <Route path={paths.admin.dashboard} element={<AdminDashboardPage />} />
            <Route path={paths.admin.tasks} element={<ManageTasksPage />} />
            <Route path={paths.admin.createTask} element={<CreateTaskPage />} />
            <Route path={paths.admin.taskPage.pattern} element={<AdminTaskPage />} />
            <Route path={paths.admin.editTask.pattern} element={<EditTaskPage />} />
            <Route path={paths.admin.board} element={<BoardPage />} />
            <Route path={paths.admin.calendar} element={<CalendarPage />} />
            <Route path={paths.admin.labels} element={<LabelsPage />} />
            <Route path={paths.admin.users} element={<TeamMembersPage />} />
            <Route path={paths.admin.settings} element={<SettingsPage />} />
          </Route>
          <Route
            element={
              <RequireRole role="member">
                <DashboardLayout />
              </RequireRole>
            }
          >
            <Route path={paths.user.dashboard} element={<UserDashboardPage />} />
            <Route path={paths.user.tasks} element={<MyTasksPage />} />
            <Route path={paths.user.taskDetails.pattern} element={<TaskDetailsPage />} />
            <Route path={paths.user.board} element={<BoardPage />} />
            <Route path={paths.user.calendar} element={<CalendarPage />} />
          </Route>
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </Suspense>
    </RouteErrorBoundary>
  );
}
