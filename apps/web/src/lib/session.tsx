import type { User } from '@task-manager/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  type ReactNode,
} from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { paths, returnPathOf } from '../config/paths';
import {
  api,
  ApiError,
  errorMessage,
  getStoredToken,
  holdRequests,
  ROLE_KEY,
  setUnauthorizedHandler,
  statusOf,
  TOKEN_KEY,
} from './api-client';
import { notify, sessionEnded, sessionStarted } from './notify';
import { i18next, LANGUAGE_STORAGE_KEY } from './i18n';
import { queryKeys } from './query-keys';
import { THEME_STORAGE_KEY } from './theme';

/** What localStorage keeps across sign-out: the look and language of this browser, not the person's data. */
const DEVICE_PREFERENCES = [THEME_STORAGE_KEY, LANGUAGE_STORAGE_KEY];

/** Keeps the role for the next visit's early dashboard request (a hint, see ROLE_KEY). */
function rememberRole(role: string) {
  try {
    localStorage.setItem(ROLE_KEY, role);
  } catch {
    // Storage unavailable: the next visit waits for the session check.
  }
}

async function fetchProfile(): Promise<User | null> {
  if (!getStoredToken()) return null;
  try {
    const { data } = await api.get<User>('/api/auth/profile');
    rememberRole(data.role);
    return data;
  } catch (error) {
    if (statusOf(error) !== 401) throw error;
    // The stored token is expired or revoked: forget it and say so once.
    localStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(ROLE_KEY);
    notify('error', i18next.t('auth.sessionExpired'), { id: 'session-expired' });
    return null;
  }
}

/** Why a session ended on its own: the account deactivated (the server says so), else expired. */
function sessionEndMessage(failure: ApiError): string {
  const expired = i18next.t('auth.sessionExpired');
  const code = (failure.data as { code?: unknown } | undefined)?.code;
  return code === 'account_deactivated' ? errorMessage(failure, expired) : expired;
}

interface Session {
  user: User | null;
  loading: boolean;
  /** After sign-in or sign-up: keep the token and the user. */
  signIn: (token: string, user: User) => void;
  /** Logout: end the token on the server, forget everything stored, go to the sign-in page. */
  signOut: () => void;
  /** The same without asking the server: its token has already been ended (sign out everywhere). */
  endSession: () => void;
}

const SessionContext = createContext<Session | null>(null);

type SessionLostListener = (userId: string) => void;
const sessionLostListeners = new Set<SessionLostListener>();

/**
 * Calls `listener` with the person's id if their session ends under them (a 401: expired, ended
 * elsewhere), before the app leaves for the sign-in page: what a form holds can be kept then.
 */
export function whenSessionLost(listener: SessionLostListener): () => void {
  sessionLostListeners.add(listener);
  return () => void sessionLostListeners.delete(listener);
}

/** The session of `userId` has ended under them: tell whoever asked. */
export function announceSessionLost(userId: string | undefined) {
  if (userId) for (const listener of sessionLostListeners) listener(userId);
}

export function SessionProvider({
  children,
  onSignedIn,
}: {
  children: ReactNode;
  /**
   * Called each time the app learns who is signed in: the sign-in or sign-up answer, and the
   * session check at start-up. Not when the same person's profile is fetched again or changed.
   */
  onSignedIn?: (user: User) => void;
}) {
  const queryClient = useQueryClient();
  const onSignedInRef = useRef(onSignedIn);
  useEffect(() => {
    onSignedInRef.current = onSignedIn;
  }, [onSignedIn]);
  const navigate = useNavigate();
  /** Where the person is: where signing in again leads back to, after a session ended. */
  const location = useLocation();
  const here = returnPathOf(location);
  const profile = useQuery({
    queryKey: queryKeys.profile,
    queryFn: async () => {
      // No profile held yet: this is the check at start-up, not a refetch of a known person.
      const starting = queryClient.getQueryData(queryKeys.profile) === undefined;
      const user = await fetchProfile();
      if (user && starting) onSignedInRef.current?.(user);
      return user;
    },
    staleTime: Infinity,
    retry: false,
  });

  const clear = useCallback(() => {
    try {
      // Everything of the session goes; this device's preferences (theme, language) stay.
      const kept = DEVICE_PREFERENCES.map((key) => [key, localStorage.getItem(key)] as const);
      localStorage.clear();
      for (const [key, value] of kept) if (value !== null) localStorage.setItem(key, value);
    } catch {
      // Storage can be unavailable (private mode); the in-memory session is cleared anyway.
    }
    holdRequests(true);
    // However the next page comes (or does not), calls are not held for long.
    setTimeout(() => holdRequests(false), 3000);
    void queryClient.cancelQueries();
    queryClient.removeQueries();
    queryClient.setQueryData(queryKeys.profile, null);
  }, [queryClient]);

  const endSession = useCallback(() => {
    try {
      // Ended on purpose: no draft of this tab (form or comment) outlives it.
      sessionStorage.clear();
    } catch {
      // Storage unavailable: nothing was kept either.
    }
    clear();
    void navigate(paths.login, { replace: true });
  }, [clear, navigate]);

  const signOut = useCallback(() => {
    const token = getStoredToken();
    // The local session ends first: its requests in flight are cancelled before the token
    // they carry is ended (they would come back refused).
    endSession();
    // Best effort: the server ends this token, so a copy of it left anywhere is useless. The
    // local session has ended whatever the answer; the header is set here because the token
    // is gone from storage.
    if (token) {
      api
        .post('/api/auth/logout', undefined, { headers: { Authorization: `Bearer ${token}` } })
        .catch(() => undefined);
    }
  }, [endSession]);

  // The next page is on screen: calls go again (the sign-in page's own, the next session's).
  useEffect(() => holdRequests(false), [here]);

  const signIn = useCallback(
    (token: string, user: User) => {
      holdRequests(false);
      localStorage.setItem(TOKEN_KEY, token);
      sessionStarted();
      rememberRole(user.role);
      queryClient.removeQueries();
      queryClient.setQueryData(queryKeys.profile, user);
      onSignedInRef.current?.(user);
    },
    [queryClient],
  );

  // Any 401 outside sign-in means the token is dead (expired, ended elsewhere, the account
  // deactivated or its role changed): end the session without asking the server to end a token
  // it already refuses, say why once, and go to the sign-in page, which leads back here (a
  // comment or a task form being typed is kept for this tab, and given back to the same person
  // only). A 401 after the session ended (a request that was in flight at logout) changes nothing.
  useEffect(() => {
    setUnauthorizedHandler((failure: ApiError) => {
      if (!getStoredToken()) return;
      announceSessionLost(queryClient.getQueryData<User | null>(queryKeys.profile)?._id);
      clear();
      sessionEnded(sessionEndMessage(failure));
      void navigate(paths.login, { replace: true, state: { from: here } });
    });
    return () => setUnauthorizedHandler(null);
  }, [clear, navigate, here, queryClient]);

  const profileError = profile.error;
  useEffect(() => {
    if (profileError) notify('error', i18next.t('auth.profileFailed'), { id: 'profile-failed' });
  }, [profileError]);

  const value = useMemo<Session>(
    () => ({
      user: profile.data ?? null,
      loading: profile.isPending,
      signIn,
      signOut,
      endSession,
    }),
    [profile.data, profile.isPending, signIn, signOut, endSession],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession must be used inside <SessionProvider>');
  return session;
}
