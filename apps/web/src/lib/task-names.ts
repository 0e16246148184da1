import type { useT } from './i18n';

type T = ReturnType<typeof useT>;

/**
 * The words for the statuses and priorities the API sends (English, the spec's values), in the
 * app's language. One table for badges, task pages and activity texts; anything else is shown as
 * sent. Maps, not objects: a value such as "constructor" must not find an inherited property.
 */
const STATUS_KEYS = new Map<string, 'ui.pending' | 'ui.inProgress' | 'ui.completed'>([
  ['Pending', 'ui.pending'],
  ['In Progress', 'ui.inProgress'],
  ['Completed', 'ui.completed'],
]);

const PRIORITY_KEYS = new Map<string, 'ui.low' | 'ui.medium' | 'ui.high'>([
  ['Low', 'ui.low'],
  ['Medium', 'ui.medium'],
  ['High', 'ui.high'],
]);

/** "In Progress" → "In Arbeit" in German. */
export function statusName(status: string, t: T): string {
  const key = STATUS_KEYS.get(status);
  return key ? t(key) : status;
}

/** "Low" → "Niedrig" in German. */
export function priorityName(priority: string, t: T): string {
  const key = PRIORITY_KEYS.get(priority);
  return key ? t(key) : priority;
}
