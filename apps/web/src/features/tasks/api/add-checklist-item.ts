import type { TaskMutationResponse } from '@task-manager/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateAfter } from '../../../lib/invalidate-after';
import { queryKeys } from '../../../lib/query-keys';

/** Adds an item at the end of a task's checklist (admins, and assignees on their own task). */
export async function addChecklistItem({
  taskId,
  text,
}: {
  taskId: string;
  text: string;
}): Promise<TaskMutationResponse> {
  const { data } = await api.post<TaskMutationResponse>(
    `/api/tasks/${encodeURIComponent(taskId)}/todo`,
    { text },
  );
  return data;
}

export function useAddChecklistItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addChecklistItem,
    onSuccess: ({ task }) => {
      queryClient.setQueryData(queryKeys.tasks.detail(task._id), task);
      void invalidateAfter(queryClient, 'taskChange');
    },
  });
}
