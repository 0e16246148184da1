import type { Task, TaskMutationResponse } from '@task-manager/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateAfter } from '../../../lib/invalidate-after';
import { mutationKeys, queryKeys } from '../../../lib/query-keys';

/** Spec section 9: the task is fetched again 300 ms after a tick is saved. */
export const CHECKLIST_REFRESH_DELAY_MS = 300;

export interface ChecklistItemChange {
  taskId: string;
  itemId: string;
  completed: boolean;
}

/**
 * Ticks or unticks one item. Unlike sending the whole list, two people ticking different items
 * at the same moment cannot undo each other's tick.
 */
export async function updateChecklistItem({
  taskId,
  itemId,
  completed,
}: ChecklistItemChange): Promise<TaskMutationResponse> {
  const { data } = await api.patch<TaskMutationResponse>(
    `/api/tasks/${encodeURIComponent(taskId)}/todo/${encodeURIComponent(itemId)}`,
    { completed },
  );
  return data;
}

/** The task with one item's flag set: what the page shows while the server is asked. */
export function withItemCompleted(task: Task, itemId: string, completed: boolean): Task {
  return {
    ...task,
    todoChecklist: task.todoChecklist.map((item) =>
      item._id === itemId ? { ...item, completed } : item,
    ),
  };
}

export function useUpdateChecklistItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: mutationKeys.checklistItem,
    mutationFn: updateChecklistItem,
    onMutate: async ({ taskId, itemId, completed }) => {
      const key = queryKeys.tasks.detail(taskId);
      // A fetch already under way would overwrite the tick with the old state.
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<Task>(key);
      if (previous) queryClient.setQueryData(key, withItemCompleted(previous, itemId, completed));
      return { previous };
    },
    onError: (_error, { taskId, itemId }, context) => {
      const key = queryKeys.tasks.detail(taskId);
      // Undo only this item's tick: other ticks made meanwhile stay as they are.
      const current = queryClient.getQueryData<Task>(key);
      const before = context?.previous?.todoChecklist.find((item) => item._id === itemId);
      if (current && before) {
        queryClient.setQueryData(key, withItemCompleted(current, itemId, before.completed));
      }
    },
    onSettled: () => {
      setTimeout(() => {
        // While another tick is still on its way, its own settling refreshes the task.
        if (queryClient.isMutating({ mutationKey: mutationKeys.checklistItem }) === 0) {
          void invalidateAfter(queryClient, 'taskChange');
        }
      }, CHECKLIST_REFRESH_DELAY_MS);
    },
  });
}
