import type { TaskListResponse } from '@task-manager/shared';
import { useRef, type KeyboardEvent } from 'react';
import { useStatusName } from '../../../components/ui/badges';
import { useT } from '../../../lib/i18n';
import type { TaskStatusFilter } from '../api/get-tasks';

type StatusSummary = TaskListResponse['statusSummary'];

/** The tabs in order, each with the summary count it shows. */
export const STATUS_TABS: readonly { status: TaskStatusFilter; count: keyof StatusSummary }[] = [
  { status: 'All', count: 'all' },
  { status: 'Pending', count: 'pendingTasks' },
  { status: 'In Progress', count: 'inProgressTasks' },
  { status: 'Completed', count: 'completedTasks' },
];

/** How many tasks a tab holds, by the summary. */
export function countFor(summary: StatusSummary, status: TaskStatusFilter): number {
  const tab = STATUS_TABS.find((candidate) => candidate.status === status)!;
  return summary[tab.count];
}

export function tabIdFor(idPrefix: string, status: TaskStatusFilter): string {
  return `${idPrefix}-tab-${status.replace(/\s+/g, '-').toLowerCase()}`;
}

/** The tab the arrow, Home and End keys move to, wrapping at both ends; null for other keys. */
export function nextTabIndex(key: string, current: number, total: number): number | null {
  switch (key) {
    case 'ArrowRight':
      return (current + 1) % total;
    case 'ArrowLeft':
      return (current - 1 + total) % total;
    case 'Home':
      return 0;
    case 'End':
      return total - 1;
    default:
      return null;
  }
}

/**
 * A WAI-ARIA tablist: one tab in the Tab order (roving tabindex), arrows move between tabs and
 * select them at once. Counts appear once the summary has loaded.
 */
export function StatusTabs({
  selected,
  onSelect,
  summary,
  idPrefix,
  panelId,
}: {
  selected: TaskStatusFilter;
  onSelect: (status: TaskStatusFilter) => void;
  summary: StatusSummary | undefined;
  idPrefix: string;
  panelId: string;
}) {
  const t = useT();
  const statusName = useStatusName();
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>, index: number) {
    const next = nextTabIndex(event.key, index, STATUS_TABS.length);
    if (next === null) return;
    event.preventDefault();
    tabs.current[next]?.focus();
    onSelect(STATUS_TABS[next]!.status);
  }

  return (
    <div
      role="tablist"
      aria-label={t('tasks.statusTabs')}
      // One row everywhere: on a phone the row scrolls sideways instead of wrapping.
      className="flex overflow-x-auto border-b border-slate-200 [scrollbar-width:thin]"
    >
      {STATUS_TABS.map(({ status, count }, index) => {
        const isSelected = status === selected;
        return (
          <button
            key={status}
            ref={(element) => {
              tabs.current[index] = element;
            }}
            type="button"
            role="tab"
            id={tabIdFor(idPrefix, status)}
            aria-selected={isSelected}
            aria-controls={panelId}
            tabIndex={isSelected ? 0 : -1}
            onClick={() => onSelect(status)}
            onKeyDown={(event) => onKeyDown(event, index)}
            className={`-mb-px flex shrink-0 items-center justify-center gap-2 border-b-2 px-3 py-2 text-sm whitespace-nowrap sm:justify-start ${
              isSelected
                ? 'border-blue-700 bg-blue-50 font-semibold text-blue-800 sm:bg-transparent'
                : 'border-slate-200 text-slate-700 hover:text-slate-900 sm:border-transparent'
            }`}
          >
            {status === 'All' ? t('tasks.all') : statusName(status)}
            {/* The space keeps the name "Pending 2", not "Pending2". */}
            {summary && ' '}
            {summary && (
              <span
                className={`rounded-full px-2 py-0.5 text-xs font-medium ${
                  isSelected ? 'bg-blue-700 text-white' : 'bg-slate-200 text-slate-800'
                }`}
              >
                {summary[count]}
              </span>
            )}
          </button>
        );
      })}
    </div>
  );
}
