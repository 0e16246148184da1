import type { CreateTaskInput, Task, TaskMutationResponse } from '@task-manager/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../../../lib/api-client';
import { invalidateAfter } from '../../../lib/invalidate-after';
import { queryKeys } from '../../../lib/query-keys';

/** The ETag of a task version: what the API answers, and takes back as If-Match. */
export function versionTag(task: { updatedAt: string }): string {
  return `"${task.updatedAt}"`;
}

/**
 * The form always sends every field, so the update payload is the create payload. With
 * `ifMatch` (the version the form was filled from) a change someone else made since is never
 * overwritten: the API answers 409 with the task as it now is (see `conflictingTask`).
 */
export async function updateTask({
  id,
  input,
  ifMatch,
}: {
  id: string;
  input: CreateTaskInput;
  ifMatch?: string;
}): Promise<TaskMutationResponse> {
  const { data } = await api.put<TaskMutationResponse>(
    `/api/tasks/${encodeURIComponent(id)}`,
    input,
    ifMatch ? { headers: { 'If-Match': ifMatch } } : undefined,
  );
  return data;
}

/** The current task of a 409 answer to an update sent with If-Match; undefined for any other error. */
export function conflictingTask(error: unknown): Task | undefined {
  if (!(error instanceof ApiError) || error.status !== 409) return undefined;
  const body = error.data as { code?: unknown; task?: Task } | undefined;
  return body?.code === 'conflict' ? body.task : undefined;
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
