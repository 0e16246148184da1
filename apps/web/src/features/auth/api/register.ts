import type { AuthResponse } from '@task-manager/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface RegisterPayload {
  name: string;
  email: string;
  password: string;
  profileImageUrl: string;
  adminInviteToken: string;
}

export async function register(payload: RegisterPayload): Promise<AuthResponse> {
  const { data } = await api.post<AuthResponse>('/api/auth/register', payload);
  return data;
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}
