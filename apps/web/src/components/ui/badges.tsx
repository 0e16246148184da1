import { useCallback } from 'react';
import { useT } from '../../lib/i18n';
import { statusName } from '../../lib/task-names';

const statusColours: Record<string, string> = {
  Pending: 'bg-violet-100 text-violet-800 border-violet-200',
  'In Progress': 'bg-cyan-100 text-cyan-800 border-cyan-200',
  Completed: 'bg-green-100 text-green-800 border-green-200',
};

const priorityColours: Record<string, string> = {
  Low: 'bg-green-100 text-green-800 border-green-200',
  Medium: 'bg-orange-100 text-orange-800 border-orange-200',
  High: 'bg-red-100 text-red-800 border-red-200',
};

/** A badge's words for the priorities the app knows ("Low Priority"); anything else as sent. */
const priorityKeys: Record<string, 'ui.lowPriority' | 'ui.mediumPriority' | 'ui.highPriority'> = {
  Low: 'ui.lowPriority',
  Medium: 'ui.mediumPriority',
  High: 'ui.highPriority',
};

const GREY = 'bg-slate-100 text-slate-700 border-slate-200';
const base = 'inline-block whitespace-nowrap rounded border px-2 py-0.5 text-xs font-medium';

/** The word for a status in the current language (anything unknown as sent). */
export function useStatusName(): (status: string) => string {
  const t = useT();
  return useCallback((status: string) => statusName(status, t), [t]);
}

/** Pending purple, In Progress cyan, Completed green, anything else grey (spec section 4). */
export function StatusBadge({ status }: { status: string }) {
  const t = useT();
  return (
    <span className={`${base} ${statusColours[status] ?? GREY}`}>{statusName(status, t)}</span>
  );
}

/** Low green, Medium orange, High red. */
export function PriorityBadge({ priority }: { priority: string }) {
  const t = useT();
  const key = priorityKeys[priority];
  return (
    <span className={`${base} ${priorityColours[priority] ?? GREY}`}>
      {key ? t(key) : t('ui.priority', { priority })}
    </span>
  );
}
