import type { User } from '@task-manager/shared';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { lazy, Suspense, type ReactElement } from 'react';
import { Toaster } from 'react-hot-toast';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { onTestFinished } from 'vitest';
import { createQueryClient } from '../lib/query-client';
import { queryKeys } from '../lib/query-keys';
import { SessionProvider } from '../lib/session';

/** Where the page led (any path but its own, with its query), and the navigation state it carried. */
function LocationProbe() {
  const location = useLocation();
  return (
    <output aria-label="Location">
      {location.pathname}
      {location.search} {JSON.stringify(location.state ?? null)}
    </output>
  );
}

export interface PageOptions {
  /** The URL the page opens at, with its query string if any. */
  path: string;
  /** The route pattern the page answers (e.g. paths.user.taskDetails.pattern); `path` if left out. */
  route?: string;
  /** Navigation state, as a link or redirect passes it. */
  state?: unknown;
  /** Who is signed in; nobody when left out. */
  signedInAs?: User;
  /** What app.tsx does when the session learns who signed in (the account's language). */
  onSignedIn?: (user: User, queryClient: QueryClient) => void;
  /**
   * Other paths show only once this settles, as a page whose chunk is still loading: the router
   * keeps the page on screen meanwhile, as the app's does (its Suspense is above the routes).
   */
  holdNavigation?: Promise<void>;
}

/**
 * Renders a page as the app does: the app's query client, a router at `path`, the session and
 * the toaster. Any other path shows a "Location" status with the path and state it was sent to.
 */
export function renderPage(
  page: ReactElement,
  { path, route = path, state, signedInAs, onSignedIn, holdNavigation }: PageOptions,
) {
  // A query string in `path` (e.g. ?token=...) is the URL's search part.
  const [pathname = path, query] = path.split('?');
  const search = query === undefined ? '' : `?${query}`;
  const queryClient = createQueryClient();
  // Once the page is unmounted: no retry or garbage-collection timer of its queries outlives the
  // test (a retry would reach the next test's stubApi).
  onTestFinished(() => queryClient.clear());
  // The session as sign-in leaves it, so no profile request is made.
  if (signedInAs) queryClient.setQueryData(queryKeys.profile, signedInAs);
  const Elsewhere = holdNavigation
    ? lazy(() => holdNavigation.then(() => ({ default: LocationProbe })))
    : LocationProbe;
  const result = render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[{ pathname, search, state }]}>
        <SessionProvider onSignedIn={onSignedIn && ((user) => onSignedIn(user, queryClient))}>
          <Suspense fallback={null}>
            <Routes>
              <Route path={route} element={page} />
              <Route path="*" element={<Elsewhere />} />
            </Routes>
          </Suspense>
        </SessionProvider>
      </MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  );
  return { ...result, queryClient };
}
