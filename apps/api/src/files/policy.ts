import type { RequestUser } from '../http/request-user.js';

/**
 * Who may do what with a task's files. Uploading and downloading: anyone who can see the task
 * (checked through the task service). Deleting: its uploader or an admin.
 */
export function canDeleteFile(user: RequestUser, file: { uploaded_by: string | null }): boolean {
  return file.uploaded_by === user.id || user.role === 'admin';
}
