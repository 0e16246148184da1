import { dueStateOf } from '../../lib/due-state';
import { formatDueDate } from '../../lib/format';
import { useT } from '../../lib/i18n';

const dateColour = {
  overdue: 'text-red-700 font-semibold',
  soon: 'text-amber-800 font-semibold',
  none: 'text-slate-900 font-medium',
} as const;

/** A red "Overdue" badge for an open task past its due date; nothing otherwise. */
export function OverdueBadge({ task }: { task: { dueDate: string | null; status: string } }) {
  const t = useT();
  if (dueStateOf(task) !== 'overdue') return null;
  return (
    <span className="inline-block rounded border border-red-300 bg-red-100 px-2 py-0.5 text-xs font-semibold whitespace-nowrap text-red-800">
      {t('ui.overdue')}
    </span>
  );
}

/**
 * A task's due date, red when it is overdue and amber when it falls due within two days (the
 * state is also in `data-due`, and the badge says it in words for those who do not see colour).
 */
export function DueDateText({
  task,
  className = '',
}: {
  task: { dueDate: string | null; status: string };
  className?: string;
}) {
  const state = dueStateOf(task);
  const t = useT();
  return (
    <span data-due={state} className={`${dateColour[state]} ${className}`}>
      {formatDueDate(task.dueDate)}
      {state === 'soon' && <span className="sr-only"> ({t('ui.dueSoon')})</span>}
    </span>
  );
}
