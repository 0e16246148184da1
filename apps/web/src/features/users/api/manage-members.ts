import type { User } from '@task-manager/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateAfter } from '../../../lib/invalidate-after';

/** What an admin may change of a person from the team page. */
export interface MemberChange {
  role?: 'admin' | 'member';
  active?: boolean;
  /** With `active: false`: who takes over the person's open tasks. */
  reassignTo?: string;
}

export async function changeMember(id: string, change: MemberChange): Promise<User> {
  const { data } = await api.patch<User>(`/api/users/${encodeURIComponent(id)}`, change);
  return data;
}

/** Deletes a person; their tasks go to `reassignTo`, or are left without them. */
export async function deleteMember(id: string, reassignTo: string | null): Promise<void> {
  await api.delete(`/api/users/${encodeURIComponent(id)}`, {
    params: reassignTo ? { reassignTo } : undefined,
  });
}

/** A single-use link, valid 24 hours, for the admin to hand over. */
export async function createResetLink(id: string): Promise<string> {
  const { data } = await api.post<{ url: string }>(
    `/api/users/${encodeURIComponent(id)}/password-reset`,
  );
  return data.url;
}

/** Every change to a person moves the team page, the pickers, and the tasks that show them. */
function useMemberMutation<Input, Output>(run: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => invalidateAfter(queryClient, 'memberChange'),
  });
}

export const useChangeMember = () =>
  useMemberMutation(({ id, change }: { id: string; change: MemberChange }) =>
    changeMember(id, change),
  );

export const useDeleteMember = () =>
  useMemberMutation(({ id, reassignTo }: { id: string; reassignTo: string | null }) =>
    deleteMember(id, reassignTo),
  );

export function useCreateResetLink() {
  return useMutation({ mutationFn: createResetLink });
}
