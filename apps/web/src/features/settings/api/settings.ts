import type { CreateInviteInput, CreatedInvite, Invite, SignupMode } from '@task-manager/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface Settings {
  signupMode: SignupMode;
  adminInviteToken: string;
}

export async function getSettings(): Promise<Settings> {
  const { data } = await api.get<Settings>('/api/settings');
  return data;
}

export function useSettings() {
  return useQuery({ queryKey: queryKeys.settings, queryFn: getSettings });
}

export async function rotateAdminInviteToken(): Promise<string> {
  const { data } = await api.post<{ adminInviteToken: string }>('/api/settings/admin-invite-token');
  return data.adminInviteToken;
}

export function useRotateAdminInviteToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rotateAdminInviteToken,
    onSuccess: (adminInviteToken) =>
      queryClient.setQueryData<Settings>(queryKeys.settings, (settings) =>
        settings ? { ...settings, adminInviteToken } : settings,
      ),
  });
}

/** The most recent invitations (the page shows one screenful; older ones are history). */
const INVITES_SHOWN = 100;

export async function getInvites(): Promise<Invite[]> {
  const { data } = await api.get<Invite[]>('/api/invites', { params: { limit: INVITES_SHOWN } });
  return data;
}

export function useInvites() {
  return useQuery({ queryKey: queryKeys.invites, queryFn: getInvites });
}

export async function createInvite(input: CreateInviteInput): Promise<CreatedInvite> {
  const { data } = await api.post<CreatedInvite>('/api/invites', input);
  return data;
}

export async function revokeInvite(id: string): Promise<void> {
  await api.delete(`/api/invites/${encodeURIComponent(id)}`);
}

function useInviteMutation<Input, Output>(run: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.invites }),
  });
}

export const useCreateInvite = () => useInviteMutation(createInvite);
export const useRevokeInvite = () => useInviteMutation(revokeInvite);
