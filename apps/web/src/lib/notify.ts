import { useSyncExternalStore } from 'react';
import { getStoredToken } from './api-client';

let toastShown = false;
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** When the session last ended on a refused token (endedSession), as Date.now(). */
let sessionEndedAt = -Infinity;
/** How long after that the failures it caused say nothing more. */
const QUIET_MS = 3000;

/**
 * The session just ended on a refused token: says so (`message`), and for a moment, while nobody has signed
 * in again, the other failures of requests refused with it (a download, a save in flight)
 * toast nothing more, rather than 'try again' beside 'please log in again'.
 */
export function sessionEnded(message: string) {
  sessionEndedAt = -Infinity;
  notify('error', message, { id: 'session-expired' });
  sessionEndedAt = Date.now();
}

/** Someone signed in: failures toast again at once, whatever ended before. */
export function sessionStarted() {
  sessionEndedAt = -Infinity;
}

/**
 * A toast from code on a signed-out screen (sign-in, the session check at start-up).
 * react-hot-toast and the toaster load with the first one, so /login draws without them.
 */
export function notify(kind: 'success' | 'error', message: string, options?: { id?: string }) {
  if (kind === 'error' && Date.now() - sessionEndedAt < QUIET_MS && !getStoredToken()) return;
  if (!toastShown) {
    toastShown = true;
    listeners.forEach((listener) => listener());
  }
  import('react-hot-toast')
    .then(({ default: toast }) => toast[kind](message, options))
    .catch(() => {
      // The chunk did not load (offline): a toast is not worth an error of its own.
    });
}

/** Whether notify() has been called: the app mounts its toaster from then on. */
export function useToastRequested(): boolean {
  return useSyncExternalStore(subscribe, () => toastShown);
}
