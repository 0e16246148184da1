import type { User } from '@task-manager/shared';
import type { QueryClient } from '@tanstack/react-query';
import { getStoredToken } from '../../lib/api-client';
import { chosenLanguage, setLanguage } from '../../lib/i18n';
import { keepProfileAnswer, saveLanguage } from './api/account';

/**
 * The account's language follows the person from browser to browser: called when the app learns
 * who signed in (the sign-in or sign-up answer, the session check at start-up), never with a
 * profile change's answer, so the save below cannot call it again.
 *
 * - A language on the account that this browser does not speak yet: the app switches to it.
 * - None yet (null): the account gets the language the person sees, once and silently, so the
 *   server's e-mails speak it too. A failure says nothing: the next sign-in tries again.
 * - No `language` in the answer at all (a server that keeps none): nothing to do.
 */
export async function followAccountLanguage(queryClient: QueryClient, user: User): Promise<void> {
  if (user.language) {
    if (user.language !== chosenLanguage()) {
      // The messages failed to load (offline): the app stays in the language it speaks.
      await setLanguage(user.language).catch(() => undefined);
    }
    return;
  }
  if (user.language !== null) return;
  const token = getStoredToken();
  /** Signed out (or in as someone else) meanwhile: nothing to save, nor a session to bring back. */
  const sameSession = () => token !== null && getStoredToken() === token;
  try {
    const answer = await saveLanguage(() => {
      if (!sameSession()) throw new Error('The session this save was for has ended');
      // Whatever the person sees when the save goes out: a choice made meanwhile on the
      // profile, saved before it, is not undone.
      return chosenLanguage();
    });
    if (sameSession()) keepProfileAnswer(queryClient, answer);
  } catch {
    // Silent: the app speaks the language anyway; only the e-mails stay in English for now.
  }
}
