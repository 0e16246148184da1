import type { User } from '@task-manager/shared';
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useState } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { useToastRequested } from '../lib/notify';
import { createQueryClient } from '../lib/query-client';
import { SessionProvider, useSession } from '../lib/session';
import { AppRoutes } from './router';

const AppToaster = lazy(async () => ({ default: (await import('./toaster')).AppToaster }));

/**
 * The toaster (and react-hot-toast) load once there can be something to show: someone is signed
 * in (every signed-in page may toast), or a signed-out screen toasted through notify(). It stays
 * mounted from then on, so a toast outlives a sign-out.
 */
function ToasterWhenNeeded() {
  const { user } = useSession();
  const requested = useToastRequested();
  const [mounted, setMounted] = useState(false);
  if (!mounted && (user !== null || requested)) setMounted(true);
  return mounted ? (
    <Suspense fallback={null}>
      <AppToaster />
    </Suspense>
  ) : null;
}

export function App() {
  const [queryClient] = useState(createQueryClient);
  // The account's language follows the person to this browser (or learns the one they see).
  // Loaded once someone is signed in: /login's first load does not carry it (or the account API).
  const followLanguage = useCallback(
    (user: User) =>
      void import('../features/auth/account-language')
        .then(({ followAccountLanguage }) => followAccountLanguage(queryClient, user))
        .catch(() => {
          // The chunk did not load (offline): the language stays as it is until the next sign-in.
        }),
    [queryClient],
  );
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <SessionProvider onSignedIn={followLanguage}>
          <AppRoutes />
          <ToasterWhenNeeded />
        </SessionProvider>
      </BrowserRouter>
    </QueryClientProvider>
  );
}
