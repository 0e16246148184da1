import type { Role } from '@task-manager/shared';

/**
 * Who may do what with accounts, in one place. The endpoints declare the coarse rule as their
 * `access` (admin, or `self-or-admin` to read an account); the service asks these for the rest.
 */

/**
 * An admin sets other people's passwords; their own only through the profile, with the current
 * one, so that a stolen session cannot lock its owner out.
 */
export function canSetPasswordOf(callerId: string, userId: string): boolean {
  return callerId !== userId;
}

/**
 * Whether a change takes an admin away: demoting an admin, or deleting one (`newRole`
 * undefined). The team must keep one, so the service then counts them.
 */
export function takesAnAdminAway(user: { role: Role }, newRole?: Role): boolean {
  return user.role === 'admin' && newRole !== 'admin';
}
