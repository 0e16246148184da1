import type { TaskMutationResponse } from '@task-manager/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateAfter } from '../../../lib/invalidate-after';
import { queryKeys } from '../../../lib/query-keys';

/** Renames one item; its tick stays (admins any item, an assignee the items they added). */
export async function renameChecklistItem({
  taskId,
  itemId,
  text,
}: {
  taskId: string;
  itemId: string;
  text: string;
}): Promise<TaskMutationResponse> {
  const { data } = await api.put<TaskMutationResponse>(
    `/api/tasks/${encodeURIComponent(taskId)}/todo/${encodeURIComponent(itemId)}`,
    { text },
  );
  return data;
}

export function useRenameChecklistItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: renameChecklistItem,
    onSuccess: ({ task }) => {
      queryClient.setQueryData(queryKeys.tasks.detail(task._id), task);
      void invalidateAfter(queryClient, 'taskChange');
    },
  });
}
