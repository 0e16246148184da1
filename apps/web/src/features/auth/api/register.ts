import type { AuthResponse, Language } from '@task-manager/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface RegisterPayload {
  name: string;
  email: string;
  password: string;
  profileImageUrl: string;
  adminInviteToken: string;
  /** An invitation link's token: the account gets the role it grants. */
  invite?: string;
  /** The app's language: the account keeps it for the server's e-mails. */
  language?: Language;
}

export async function register(payload: RegisterPayload): Promise<AuthResponse> {
  const { data } = await api.post<AuthResponse>('/api/auth/register', payload);
  return data;
}

/** What an invitation link grants, for the sign-up page to say before anyone types. */
export interface InviteLookup {
  role: 'admin' | 'member';
  email: string | null;
}

export async function lookUpInvite(token: string): Promise<InviteLookup> {
  const { data } = await api.get<InviteLookup>('/api/invites/lookup', { params: { token } });
  return data;
}

export function useInviteLookup(token: string | null) {
  return useQuery({
    queryKey: queryKeys.inviteLookup(token),
    queryFn: () => lookUpInvite(token ?? ''),
    enabled: !!token,
    retry: false,
    staleTime: Infinity,
  });
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}
