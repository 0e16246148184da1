import type { Activity } from '@task-manager/shared';
import type { useT } from './i18n';
import { statusName } from './task-names';

type T = ReturnType<typeof useT>;

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

const FIELD_KEYS = {
  title: 'timeline.fields.title',
  description: 'timeline.fields.description',
  priority: 'timeline.fields.priority',
  dueDate: 'timeline.fields.dueDate',
  labels: 'timeline.fields.labels',
} as const;

/** What someone did, as the rest of a sentence that starts with their name. */
export function describeActivity(activity: Activity, t: T): string {
  const data = activity.data;
  switch (activity.type) {
    case 'task.created':
      return t('timeline.created');
    case 'task.updated': {
      const changes = (data.changes ?? {}) as Record<string, unknown>;
      const fields = Object.keys(changes).map((field) =>
        field in FIELD_KEYS ? t(FIELD_KEYS[field as keyof typeof FIELD_KEYS]) : field,
      );
      return t('timeline.updated', { fields: fields.join(', ') });
    }
    case 'assignee.added':
      return t('timeline.assigneeAdded', { name: text(data.name) });
    case 'assignee.removed':
      return t('timeline.assigneeRemoved', { name: text(data.name) });
    case 'checklist.added':
      return t('timeline.itemAdded', { text: text(data.text) });
    case 'checklist.renamed':
      return t('timeline.itemRenamed', { before: text(data.before), after: text(data.after) });
    case 'checklist.removed':
      return t('timeline.itemRemoved', { text: text(data.text) });
    case 'checklist.reordered':
      return t('timeline.itemsReordered');
    case 'checklist.ticked':
      return t('timeline.itemTicked', { text: text(data.text) });
    case 'checklist.unticked':
      return t('timeline.itemUnticked', { text: text(data.text) });
    case 'status.changed': {
      // The API records the status as its value (English): shown as the badges name it.
      const after = statusName(text(data.after), t);
      return data.reason === 'checklist'
        ? t('timeline.statusByChecklist', { after })
        : t('timeline.statusMoved', { after });
    }
    case 'link.added':
      return t('timeline.linkAdded', { url: text(data.url) });
    case 'link.removed':
      return t('timeline.linkRemoved', { url: text(data.url) });
    case 'file.added':
      return t('timeline.fileAdded', { name: text(data.name) });
    case 'file.removed':
      return t('timeline.fileRemoved', { name: text(data.name) });
    case 'comment.added':
      return t('timeline.commented');
  }
}
