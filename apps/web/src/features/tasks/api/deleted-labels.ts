import type { Label } from '@task-manager/shared';
import { ApiError } from '../../../lib/api-client';
import { existingLabelIds } from '../../../lib/get-labels';

/**
 * Whether the server refused a task's labels (400 on `labels`): one was deleted, most likely by
 * someone else while the form was open.
 */
export function labelsRefused(error: unknown): boolean {
  if (!(error instanceof ApiError) || error.status !== 400) return false;
  const errors = (error.data as { errors?: Array<{ path?: unknown }> } | undefined)?.errors;
  return (
    errors?.some((entry) => typeof entry.path === 'string' && entry.path.startsWith('labels')) ??
    false
  );
}

/**
 * Of the label ids `ids`, those that still exist, the labels read afresh with `refetch`; undefined
 * when every one of them still does (the refusal was about something else), or when they cannot
 * be read.
 */
export async function survivingLabels(
  ids: readonly string[],
  refetch: () => Promise<{ data?: Label[] }>,
): Promise<string[] | undefined> {
  const { data } = await refetch();
  if (!data) return undefined;
  const kept = existingLabelIds(ids, data);
  return kept.length < ids.length ? kept : undefined;
}
