import { whenSessionLost } from './session';

/**
 * What a person was typing when their session ended under them (an expired token, signed out
 * elsewhere, a role change): a form with changes keeps a snapshot of its values while it is on
 * screen; if the session is lost then, the snapshot goes to this tab's storage before the app
 * leads to the sign-in page, which leads back to the form. The form reads it back when it
 * mounts, for the same person only (on a shared computer, someone else signing in never sees
 * it). Signing out on purpose clears it (session.tsx).
 */

const PREFIX = 'form-draft:';

interface StoredDraft {
  userId: string;
  value: unknown;
}

/** Keep `snapshot()` under `key` if the session is lost while this holds. Returns the release. */
export function keepIfSessionEnds(key: string, snapshot: () => unknown): () => void {
  return whenSessionLost((userId) => {
    const draft: StoredDraft = { userId, value: snapshot() };
    try {
      sessionStorage.setItem(PREFIX + key, JSON.stringify(draft));
    } catch {
      // Storage unavailable or full: nothing more can be kept.
    }
  });
}

/**
 * The draft kept under `key` for `userId`; `null` if none, if it was someone else's, or
 * unreadable. Reading leaves it stored (a render can be thrown away): `forgetDraft` once the
 * form that took it is on screen.
 */
export function readDraft(key: string, userId: string | undefined): unknown {
  if (!userId) return null;
  try {
    const text = sessionStorage.getItem(PREFIX + key);
    const draft = text === null ? null : (JSON.parse(text) as Partial<StoredDraft> | null);
    return draft?.userId === userId ? (draft.value ?? null) : null;
  } catch {
    return null;
  }
}

/** The form under `key` is on screen: what was kept for it (anyone's) is not kept any longer. */
export function forgetDraft(key: string) {
  try {
    sessionStorage.removeItem(PREFIX + key);
  } catch {
    // Storage unavailable: nothing was stored.
  }
}
