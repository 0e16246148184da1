import type { Activity } from '@task-manager/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { describeActivity } from './describe-activity';
import { i18next, loadLanguage } from './i18n';

const marcus = { _id: '00000000-0000-4000-8000-00000000bbbb', name: 'Marcus Chen' };

function activity(type: Activity['type'], data: Record<string, unknown>): Activity {
  return {
    _id: 'a1',
    taskId: '00000000-0000-4000-8000-00000000aaaa',
    type,
    actor: { ...marcus, profileImageUrl: null },
    at: '2031-01-01T10:00:00.000Z',
    data,
  } as Activity;
}

async function translator(language: 'en' | 'de') {
  await loadLanguage(language);
  return i18next.getFixedT(language);
}

afterEach(async () => {
  if (i18next.language !== 'en') await i18next.changeLanguage('en');
});

describe('describeActivity', () => {
  it('names a new status as the status badges do, in German', async () => {
    const t = await translator('de');
    expect(
      describeActivity(
        activity('status.changed', {
          before: 'Pending',
          after: 'In Progress',
          reason: 'checklist',
        }),
        t,
      ),
    ).toBe('hat die Aufgabe auf In Arbeit gesetzt (durch die Checkliste)');
    expect(
      describeActivity(
        activity('status.changed', { before: 'In Progress', after: 'Completed', reason: 'move' }),
        t,
      ),
    ).toBe('hat die Aufgabe auf Erledigt gesetzt');
  });

  it('keeps the English words in English, and a status it does not know as sent', async () => {
    const t = await translator('en');
    expect(
      describeActivity(
        activity('status.changed', {
          before: 'Pending',
          after: 'In Progress',
          reason: 'checklist',
        }),
        t,
      ),
    ).toBe('moved the task to In Progress (by the checklist)');
    expect(describeActivity(activity('status.changed', { after: 'Archived' }), t)).toBe(
      'moved the task to Archived',
    );
  });

  it('names a changed priority as a field, without its English value, in German', async () => {
    const t = await translator('de');
    expect(
      describeActivity(
        activity('task.updated', { changes: { priority: { before: 'Low', after: 'High' } } }),
        t,
      ),
    ).toBe('hat die Priorität geändert');
  });
});
