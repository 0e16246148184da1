import type { CreateTaskInput, TaskMutationResponse } from '@task-manager/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateAfter } from '../../../lib/invalidate-after';
import { queryKeys } from '../../../lib/query-keys';

/** The form always sends every field, so the update payload is the create payload. */
export async function updateTask({
  id,
  input,
}: {
  id: string;
  input: CreateTaskInput;
}): Promise<TaskMutationResponse> {
  const { data } = await api.put<TaskMutationResponse>(
    `/api/tasks/${encodeURIComponent(id)}`,
    input,
  );
  return data;
}

export function useUpdateTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateTask,
    onSuccess: ({ task }) => {
      // The answer is the task as it now is: show it at once, then refresh everything else.
      queryClient.setQueryData(queryKeys.tasks.detail(task._id), task);
      void invalidateAfter(queryClient, 'taskChange');
    },
  });
}
