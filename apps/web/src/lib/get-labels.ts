import type { Label } from '@task-manager/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client';
import { queryKeys } from './query-keys';
import { useSession } from './session';

/*
 * GET /api/labels lives here, not in a feature, because three features show it: the task list's
 * filter bar and the task form (tasks), and the label manager (labels).
 */

/** The label ids of `ids` that name a label of `labels`; all of them until the labels are known. */
export function existingLabelIds(
  ids: readonly string[],
  labels: readonly { _id: string }[] | undefined,
): string[] {
  if (!labels || ids.length === 0) return [...ids];
  const known = new Set(labels.map((label) => label._id));
  return ids.filter((id) => known.has(id));
}

/** Every label, by name (any signed-in person). */
export async function getLabels(): Promise<Label[]> {
  const { data } = await api.get<Label[]>('/api/labels');
  return data;
}

export function labelsQueryOptions() {
  return queryOptions({ queryKey: queryKeys.labels.all, queryFn: getLabels });
}

/** The labels, while someone is signed in (not again after a 401 has ended the session). */
export function useLabels() {
  const { user } = useSession();
  return useQuery({ ...labelsQueryOptions(), enabled: user !== null });
}
