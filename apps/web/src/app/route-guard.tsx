import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { Spinner } from '../components/ui/feedback';
import {
  afterSignInPath,
  fromOf,
  homePathFor,
  paths,
  returnPathOf,
  type Role,
} from '../config/paths';
import { useT } from '../lib/i18n';
import { useSession } from '../lib/session';
import { FrameSkeleton } from './layouts/frame-skeleton';

/** To the sign-in page, which leads back here afterwards (afterSignInPath). */
function ToSignIn() {
  const location = useLocation();
  return <Navigate to={paths.login} replace state={{ from: returnPathOf(location) }} />;
}

/**
 * Nobody signed in goes to /login; someone whose role is not allowed goes to their own dashboard
 * (the spec's original declared roles but never checked them).
 */
export function RequireRole({ role, children }: { role: Role; children: ReactNode }) {
  const { user, loading } = useSession();
  // The frame draws at once while the session is checked, never a blank screen.
  if (loading) return <FrameSkeleton />;
  if (!user) return <ToSignIn />;
  const isAdmin = user.role === 'admin';
  if ((role === 'admin') !== isAdmin) return <Navigate to={homePathFor(user.role)} replace />;
  return <>{children}</>;
}

/** Pages of every signed-in person whatever the role (their own profile). */
export function RequireSignedIn({ children }: { children: ReactNode }) {
  const { user, loading } = useSession();
  // The frame draws at once while the session is checked, never a blank screen.
  if (loading) return <FrameSkeleton />;
  if (!user) return <ToSignIn />;
  return <>{children}</>;
}

/** Sign-in and sign-up: someone already signed in goes to their dashboard. */
export function GuestOnly({ children }: { children: ReactNode }) {
  const { user, loading } = useSession();
  const location = useLocation();
  const t = useT();
  if (loading) return <Spinner label={t('common.loading')} />;
  if (user) return <Navigate to={afterSignInPath(user.role, fromOf(location.state))} replace />;
  return <>{children}</>;
}

/** `/`: a loader while the session loads, then /login or the role's dashboard. */
export function RootRedirect() {
  const { user, loading } = useSession();
  const t = useT();
  if (loading) return <Spinner label={t('common.loading')} />;
  return <Navigate to={user ? homePathFor(user.role) : paths.login} replace />;
}
