import type { RequestUser } from '../http/request-user.js';

/**
 * Who may do what with comments. Reading and writing comments: anyone who can see the task
 * (checked through the task service). Editing: its author only. Deleting: its author or an admin.
 */
export function canEditComment(user: RequestUser, comment: { author_id: string | null }) {
  return comment.author_id === user.id;
}

export function canDeleteComment(user: RequestUser, comment: { author_id: string | null }) {
  return comment.author_id === user.id || user.role === 'admin';
}

/**
 * A person may be mentioned on a task only if they can see it (an admin, or one of its
 * assignees), so a mention never tells anyone about a task they cannot open.
 */
export function canBeMentioned(person: { role: string; assigned: unknown }): boolean {
  return person.role === 'admin' || person.assigned !== null;
}
