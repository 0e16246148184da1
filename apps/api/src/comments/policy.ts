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
