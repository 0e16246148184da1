import type { Task } from '@task-manager/shared';
import type { RecordedRequest } from './stub-api';

/** GET answers of a task's page: the task, and an empty timeline (comments, history, people). */
export function taskAnswer(call: RecordedRequest, task: Task) {
  const timeline = /\/(comments|activity|people)$/.test(call.url);
  return { status: 200, data: timeline ? [] : task };
}
