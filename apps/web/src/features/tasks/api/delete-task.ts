import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateAfter } from '../../../lib/invalidate-after';
import { queryKeys } from '../../../lib/query-keys';

export async function deleteTask(id: string): Promise<{ message: string }> {
  const { data } = await api.delete<{ message: string }>(`/api/tasks/${encodeURIComponent(id)}`);
  return data;
}

export function useDeleteTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTask,
    onSuccess: (_answer, id) => {
      // The page still shows the task until it navigates away: refetching it would only 404.
      // Its history goes (the edit form reads it for the checklist's ticks) for the same reason.
      queryClient.removeQueries({ queryKey: queryKeys.tasks.activity(id) });
      // Not awaited, so the caller's onSuccess (toast and navigation) runs at once.
      void invalidateAfter(queryClient, 'taskChange', { except: queryKeys.tasks.detail(id) });
    },
  });
}
