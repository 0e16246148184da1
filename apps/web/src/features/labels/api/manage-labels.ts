import type { CreateLabelInput, Label, UpdateLabelInput } from '@task-manager/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
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
