import type { CreateTaskInput, TaskMutationResponse } from '@task-manager/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateAfter } from '../../../lib/invalidate-after';

export async function createTask(input: CreateTaskInput): Promise<TaskMutationResponse> {
  const { data } = await api.post<TaskMutationResponse>('/api/tasks', input);
  return data;
}

export function useCreateTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTask,
    onSuccess: () => {
      void invalidateAfter(queryClient, 'taskChange');
    },
  });
}
