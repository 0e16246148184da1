import type { Notification } from '@task-manager/shared';
import type { TFunction } from 'i18next';
import { formatDate, formatDueDate } from '../../lib/format';
import type { Language } from '../../lib/i18n';

/** The task's title: the live one, else the one kept when it was sent (deleted, or taken away). */
function titleOf(notification: Notification, t: TFunction): string {
  if (notification.task) return notification.task.title;
  const kept = notification.data.taskTitle;
  return typeof kept === 'string' && kept ? kept : t('notifications.deletedTask');
}

/** One sentence per kind, e.g. 'Ada Admin assigned you to “Write report”'. */
export function notificationSentence(
  notification: Notification,
  t: TFunction,
  language: Language,
): string {
  const values = {
    actor: notification.actor?.name ?? t('notifications.someone'),
    title: titleOf(notification, t),
  };
  switch (notification.type) {
    case 'assigned':
      return t('notifications.sentence.assigned', values);
    case 'unassigned':
      return t('notifications.sentence.unassigned', values);
    case 'mentioned':
      return t('notifications.sentence.mentioned', values);
    case 'commented':
      return t('notifications.sentence.commented', values);
    case 'due_changed': {
      const due = notification.data.dueDate;
      return typeof due === 'string' && due
        ? t('notifications.sentence.dueChanged', {
            ...values,
            date: formatDueDate(due, language),
          })
        : t('notifications.sentence.dueRemoved', values);
    }
    case 'due_soon':
      return t('notifications.sentence.dueSoon', values);
    case 'overdue':
      return t('notifications.sentence.overdue', values);
  }
}

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['minute', 60],
  ['hour', 60 * 60],
  ['day', 24 * 60 * 60],
];

/** '5 minutes ago', 'yesterday', 'vor 3 Stunden'; the date itself from a week back. */
export function relativeTime(at: string, now: Date, t: TFunction, language: Language): string {
  const seconds = Math.round((now.getTime() - new Date(at).getTime()) / 1000);
  if (Number.isNaN(seconds)) return formatDate(at, language);
  if (seconds < 60) return t('notifications.justNow');
  if (seconds >= 7 * 24 * 60 * 60) return formatDate(at, language);
  const format = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  const [unit, size] = [...UNITS].reverse().find(([, length]) => seconds >= length) ?? UNITS[0]!;
  return format.format(-Math.floor(seconds / size), unit);
}
