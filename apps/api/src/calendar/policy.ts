import type { CalendarScope } from '@task-manager/shared';
import type { RequestUser } from '../http/request-user.js';

/**
 * What a calendar feed may show: everyone their own tasks; an admin may choose every task (a
 * member's feed never holds another member's task).
 */
export function canUseCalendarScope(user: Pick<RequestUser, 'role'>, scope: CalendarScope) {
  return scope === 'mine' || user.role === 'admin';
}
