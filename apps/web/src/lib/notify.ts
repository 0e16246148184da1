import { useSyncExternalStore } from 'react';

let toastShown = false;
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * A toast from code on a signed-out screen (sign-in, the session check at start-up).
 * react-hot-toast and the toaster load with the first one, so /login draws without them.
 */
export function notify(kind: 'success' | 'error', message: string, options?: { id?: string }) {
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
