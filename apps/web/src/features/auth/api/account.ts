import type { AuthResponse, Language } from '@task-manager/shared';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api, TOKEN_KEY } from '../../../lib/api-client';
import { invalidateAfter } from '../../../lib/invalidate-after';
import { queryKeys } from '../../../lib/query-keys';

/** What the profile page may change; each section sends only its own fields. */
export interface ProfileChange {
  name?: string;
  profileImageUrl?: string | null;
  email?: string;
  currentPassword?: string;
  newPassword?: string;
  /** The language the app and the server's e-mails speak to the person: needs no password. */
  language?: Language;
}

export async function updateProfile(change: ProfileChange): Promise<AuthResponse> {
  const { data } = await api.put<AuthResponse>('/api/auth/profile', change);
  return data;
}

/**
 * What every profile change's answer does: it carries a fresh token (a new password ends every
 * other session, this one goes on with it) and the user as now stored, and both replace what the
 * session holds.
 */
export function keepProfileAnswer(queryClient: QueryClient, { token, ...user }: AuthResponse) {
  localStorage.setItem(TOKEN_KEY, token);
  queryClient.setQueryData(queryKeys.profile, user);
}

/**
 * Saves a profile change (keepProfileAnswer); what shows the person's name or photo is fetched
 * again.
 */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: async (answer) => {
      keepProfileAnswer(queryClient, answer);
      await invalidateAfter(queryClient, 'profileChange');
    },
  });
}

/**
 * Language saves go out one after another, each once the one before has answered: the account
 * ends with the language asked for last (a choice on the profile made while the session's own
 * save is on its way, say), whichever request the server would otherwise finish last.
 */
let languageSaves: Promise<unknown> = Promise.resolve();

/**
 * Keeps a language on the account, so the server's e-mails speak it too. A function is asked
 * for the language when the save's turn comes.
 */
export function saveLanguage(language: Language | (() => Language)): Promise<AuthResponse> {
  const save = languageSaves.then(() =>
    updateProfile({ language: typeof language === 'function' ? language() : language }),
  );
  languageSaves = save.catch(() => undefined);
  return save;
}

/**
 * Saves the language chosen on the profile (keepProfileAnswer). Nothing else shows it: no query
 * is fetched again.
 */
export function useSaveLanguage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveLanguage,
    onSuccess: (answer) => keepProfileAnswer(queryClient, answer),
  });
}

/** Ends every session of the signed-in person, this one included. */
export async function signOutEverywhere(): Promise<void> {
  await api.post('/api/auth/logout-all');
}

export function useSignOutEverywhere() {
  return useMutation({ mutationFn: signOutEverywhere });
}

export async function requestPasswordReset(email: string): Promise<{ message: string }> {
  const { data } = await api.post<{ message: string }>('/api/auth/password-reset/request', {
    email,
  });
  return data;
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}

export async function confirmPasswordReset(input: {
  token: string;
  password: string;
}): Promise<{ message: string }> {
  const { data } = await api.post<{ message: string }>('/api/auth/password-reset/confirm', input);
  return data;
}

export function useConfirmPasswordReset() {
  return useMutation({ mutationFn: confirmPasswordReset });
}

/** How this server lets people in: open or invitation-only sign-up, and reset by e-mail or not. */
export interface AuthOptions {
  signupMode: 'open' | 'invite';
  passwordResetByEmail: boolean;
}

export async function getAuthOptions(): Promise<AuthOptions> {
  const { data } = await api.get<AuthOptions>('/api/auth/options');
  return data;
}

export function useAuthOptions() {
  return useQuery({
    queryKey: queryKeys.authOptions,
    queryFn: getAuthOptions,
    staleTime: 5 * 60_000,
  });
}
