import type { ReactNode } from 'react';
import { matchPath, useLocation } from 'react-router-dom';
import { Skeleton } from '../../components/ui/feedback';
import { paths } from '../../config/paths';
import { useT } from '../../lib/i18n';
import { DashboardSkeleton } from '../../features/dashboard/components/dashboard-skeleton';

/** Signed-in pages: everything but the sign-in, sign-up and password pages. */
const SIGNED_OUT_PATTERNS = [
  paths.root,
  paths.login,
  paths.signup,
  paths.signupAlias,
  paths.forgotPassword,
  paths.resetPassword,
];

export function isSignedInPath(pathname: string): boolean {
  return !SIGNED_OUT_PATTERNS.some((pattern) => matchPath(pattern, pathname));
}

/** A page's title and a few blocks: the shape of a page whose own skeleton is not known here. */
function GenericPageSkeleton() {
  return (
    <div className="flex flex-col gap-4">
      <Skeleton className="h-8 w-48" />
      <Skeleton className="h-24" />
      <Skeleton className="h-24" />
      <Skeleton className="h-24" />
    </div>
  );
}

/** Team Members: its title and buttons over a grid of member cards (as its own data skeleton). */
function TeamMembersSkeleton() {
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Skeleton className="h-7 w-40" />
        <Skeleton className="h-9 w-36" />
      </div>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {[0, 1, 2, 3, 4, 5].map((card) => (
          <div
            key={card}
            className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4"
          >
            <div className="flex items-center gap-3">
              <Skeleton className="h-12 w-12 rounded-full" />
              <div className="flex flex-1 flex-col gap-2">
                <Skeleton className="h-4 w-32" />
                <Skeleton className="h-3 w-44" />
              </div>
            </div>
            <Skeleton className="h-14" />
          </div>
        ))}
      </div>
    </div>
  );
}

/**
 * The shape of the page at `pathname` while its code loads: the dashboards' and Team Members' own
 * shapes, else a title and blocks. Each page draws its own skeleton while its data loads.
 */
export function PageSkeleton() {
  const { pathname } = useLocation();
  const dashboard = pathname === paths.admin.dashboard || pathname === paths.user.dashboard;
  const t = useT();
  return (
    <div aria-busy="true">
      <span role="status" className="sr-only">
        {t('common.loading')}
      </span>
      {dashboard ? (
        <div className="flex flex-col gap-5">
          <div className="flex flex-col gap-2">
            <Skeleton className="h-8 w-72 max-w-full" />
            <Skeleton className="h-4 w-44" />
          </div>
          <DashboardSkeleton />
        </div>
      ) : pathname === paths.admin.users ? (
        <TeamMembersSkeleton />
      ) : (
        <GenericPageSkeleton />
      )}
    </div>
  );
}

/**
 * The signed-in frame as it will look (top bar, side menu, the page's shape) while the session is
 * checked or the frame's own code loads: drawn at once from the first chunk, with no icons or data,
 * so a signed-in page never opens on a blank "Loading..." screen.
 */
export function FrameSkeleton({ children }: { children?: ReactNode }) {
  return (
    <div className="min-h-screen bg-slate-50">
      <header className="sticky top-0 z-30 flex h-14 items-center gap-3 border-b border-slate-200 bg-white px-4">
        <span aria-hidden className="h-[34px] w-[34px] min-[1080px]:hidden" />
        <p className="flex items-center gap-2 text-lg font-semibold text-slate-900">
          <img src="/favicon.svg" alt="" width={24} height={24} />
          Task Manager
        </p>
      </header>
      <div className="flex">
        <aside
          aria-hidden
          className="sticky top-14 hidden h-[calc(100vh-3.5rem)] w-64 shrink-0 border-r border-slate-200 bg-white min-[1080px]:block"
        >
          <div className="flex flex-col items-center gap-2 border-b border-slate-200 px-4 py-6">
            <Skeleton className="h-[72px] w-[72px] rounded-full" />
            <Skeleton className="mt-1 h-4 w-28" />
            <Skeleton className="h-3 w-40" />
          </div>
          <div className="flex flex-col gap-5 px-6 py-6">
            {[0, 1, 2, 3, 4].map((line) => (
              <Skeleton key={line} className="h-4 w-36" />
            ))}
          </div>
        </aside>
        <main className="min-w-0 flex-1 px-4 py-5 md:px-6">{children ?? <PageSkeleton />}</main>
      </div>
    </div>
  );
}

/**
 * What the app shows while a page's code loads before any frame is on screen: the signed-in
 * frame's skeleton on a signed-in path, otherwise (sign-in and sign-up pages) a quiet spinner.
 */
export function RouteFallback({ signedOut }: { signedOut: ReactNode }) {
  const { pathname } = useLocation();
  return isSignedInPath(pathname) ? <FrameSkeleton /> : <>{signedOut}</>;
}
