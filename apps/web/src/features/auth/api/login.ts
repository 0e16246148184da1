import type { AuthResponse, LoginInput } from '@task-manager/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export async function login(input: LoginInput): Promise<AuthResponse> {
  const { data } = await api.post<AuthResponse>('/api/auth/login', input);
  return data;
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
