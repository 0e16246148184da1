import type {
  CreateLabelInput,
  Label,
  TaskCardListResponse,
  UpdateLabelInput,
} from '@task-manager/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { invalidateAfter } from '../../../lib/invalidate-after';

/** POST /api/labels (admins). */
export async function createLabel(input: CreateLabelInput): Promise<Label> {
  const { data } = await api.post<Label>('/api/labels', input);
  return data;
}

/** PUT /api/labels/:id (admins): a new name, colour or both. */
export async function updateLabel({
  id,
  input,
}: {
  id: string;
  input: UpdateLabelInput;
}): Promise<Label> {
  const { data } = await api.put<Label>(`/api/labels/${encodeURIComponent(id)}`, input);
  return data;
}

/**
 * How many tasks carry the label: the task list filtered by it counts them (`statusSummary.all`,
 * every status), one card read at most.
 */
export async function countTasksWithLabel(id: string): Promise<number> {
  const { data } = await api.get<TaskCardListResponse>('/api/tasks', {
    params: { label: id, limit: 1, view: 'card' },
  });
  return data.statusSummary.all;
}

/** The count above, asked only while `enabled` (the delete question is open). */
export function useTasksWithLabel(id: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.tasks.withLabel(id),
    queryFn: () => countTasksWithLabel(id),
    enabled,
  });
}

/** DELETE /api/labels/:id (admins): the label also leaves every task that had it. */
export async function deleteLabel(id: string): Promise<void> {
  await api.delete(`/api/labels/${encodeURIComponent(id)}`);
}

/** Every label change refreshes the labels and the tasks that show them. */
function useLabelMutation<Input, Output>(mutationFn: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => void invalidateAfter(queryClient, 'labelChange'),
  });
}

export const useCreateLabel = () => useLabelMutation(createLabel);
export const useUpdateLabel = () => useLabelMutation(updateLabel);
export const useDeleteLabel = () => useLabelMutation(deleteLabel);
