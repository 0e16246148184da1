import type { RequestUser } from '../http/request-user.js';
import type { TaskScope } from './repository.js';

/**
 * Who may do what with tasks, in one place. The endpoints declare the coarse rule as their
 * `access` (admin, or a user who can see the task); the service asks these for the rest.
 */

/** The tasks a user can see: every task for an admin, a member's own assignments otherwise. */
export function visibleScope(user: RequestUser): TaskScope {
  return user.role === 'admin' ? {} : { assigneeId: user.id };
}

/** Every task is visible to an admin; a member must be assigned (checked through the scope). */
export function seesEveryTask(user: RequestUser): boolean {
  return user.role === 'admin';
}

/**
 * Adding, removing, renaming or reordering checklist items, and every other field: admins. Anyone
 * who can see a task may tick and untick its items.
 */
export function canEditTask(user: RequestUser): boolean {
  return user.role === 'admin';
}
