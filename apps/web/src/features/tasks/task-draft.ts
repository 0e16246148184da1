import { taskSchema, type Task } from '@task-manager/shared';
import { useEffect, useState } from 'react';
import { forgetDraft, keepIfSessionEnds, readDraft } from '../../lib/form-drafts';
import { useSession } from '../../lib/session';
import { formFromDraft, type TaskFormValues } from './task-form-rules';

/**
 * A task form's values kept when the session ended, with the version of the task they edit
 * (saving sends that version, so a change someone made meanwhile shows the conflict view).
 */
export interface TaskDraft {
  values: TaskFormValues;
  base?: Task;
}

/** The form's key in the drafts: the task's id, or `new` for the create form. */
export const taskDraftKey = (taskId?: string) => `task:${taskId ?? 'new'}`;

/**
 * The draft kept under `key` for the person signed in now, read when the page mounts; once it is
 * on screen, nothing stays kept under that key (someone else's draft is dropped unseen).
 */
export function useTaskDraft(key: string): TaskDraft | null {
  const userId = useSession().user?._id;
  useEffect(() => forgetDraft(key), [key]);
  const [draft] = useState(() => {
    const kept = readDraft(key, userId) as { values?: unknown; base?: unknown } | null;
    const values = formFromDraft(kept?.values);
    if (!values) return null;
    const base = taskSchema.safeParse(kept?.base);
    return base.success ? { values, base: base.data } : { values };
  });
  return draft;
}

/** While `changed`, the form's values (and the version they edit) are kept if the session ends. */
export function useKeepTaskDraft(key: string, changed: boolean, draft: TaskDraft) {
  useEffect(() => {
    if (changed) return keepIfSessionEnds(key, () => draft);
  }, [key, changed, draft]);
}
