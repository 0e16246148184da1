import type { AuthResponse } from '@task-manager/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
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
}

export async function updateProfile(change: ProfileChange): Promise<AuthResponse> {
  const { data } = await api.put<AuthResponse>('/api/auth/profile', change);
  return data;
}

/**
 * Saves a profile change. The answer carries a fresh token (a new password ends every other
 * session, this one goes on with it) and the user as now stored: both replace what the session
 * holds, and what shows the person's name or photo is fetched again.
 */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: async ({ token, ...user }) => {
      localStorage.setItem(TOKEN_KEY, token);
      queryClient.setQueryData(queryKeys.profile, user);
      await invalidateAfter(queryClient, 'profileChange');
    },
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
