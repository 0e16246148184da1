import type { Notification } from '@task-manager/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { i18next, loadLanguage } from '../../lib/i18n';
import { notificationSentence, relativeTime } from './notification-text';

function notification(overrides: Partial<Notification> = {}): Notification {
  return {
    _id: 'n1',
    type: 'assigned',
    task: { _id: 't1', title: 'Write report' },
    actor: { _id: 'u1', name: 'Ada', profileImageUrl: null },
    data: { taskTitle: 'Write report' },
    createdAt: '2026-11-25T08:00:00.000Z',
    readAt: null,
    ...overrides,
  };
}

const en = i18next.getFixedT('en');

afterEach(() => i18next.changeLanguage('en'));

describe('notificationSentence', () => {
  it.each([
    ['assigned', {}, 'Ada assigned you to “Write report”'],
    ['unassigned', {}, 'Ada removed you from “Write report”'],
    ['mentioned', {}, 'Ada mentioned you on “Write report”'],
    ['commented', {}, 'Ada commented on “Write report”'],
    [
      'due_changed',
      { dueDate: '2031-03-15T00:00:00.000Z' },
      'Ada moved the due date of “Write report” to 15th Mar 2031',
    ],
    ['due_soon', {}, '“Write report” is due tomorrow'],
    ['overdue', {}, '“Write report” is overdue'],
  ] as const)('%s', (type, data, sentence) => {
    const shown = notification({ type, data: { taskTitle: 'Write report', ...data } });
    expect(notificationSentence(shown, en, 'en')).toBe(sentence);
  });

  it('keeps the title of a task that is gone, and says "Someone" for a deleted user', () => {
    const gone = notification({ task: null, actor: null, data: { taskTitle: 'Old task' } });
    expect(notificationSentence(gone, en, 'en')).toBe('Someone assigned you to “Old task”');
  });

  it('speaks German', async () => {
    await loadLanguage('de');
    const de = i18next.getFixedT('de');
    expect(notificationSentence(notification(), de, 'de')).toBe(
      'Ada hat dir „Write report“ zugewiesen',
    );
    expect(
      notificationSentence(
        notification({ type: 'due_changed', data: { dueDate: '2031-03-15T00:00:00.000Z' } }),
        de,
        'de',
      ),
    ).toBe('Ada hat das Fälligkeitsdatum von „Write report“ auf 15. März 2031 verschoben');
  });
});

describe('relativeTime', () => {
  const now = new Date('2026-11-25T12:00:00.000Z');
  it.each([
    ['2026-11-25T11:59:30.000Z', 'en', 'just now'],
    ['2026-11-25T11:55:00.000Z', 'en', '5 minutes ago'],
    ['2026-11-25T09:00:00.000Z', 'en', '3 hours ago'],
    ['2026-11-24T10:00:00.000Z', 'en', 'yesterday'],
    ['2026-11-25T09:00:00.000Z', 'de', 'vor 3 Stunden'],
    ['2026-11-01T09:00:00.000Z', 'en', '1st Nov 2026'],
  ] as const)('%s in %s is "%s"', async (at, language, text) => {
    await loadLanguage(language);
    expect(relativeTime(at, now, i18next.getFixedT(language), language)).toBe(text);
  });
});
