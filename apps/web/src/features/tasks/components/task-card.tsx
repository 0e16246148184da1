import type { TaskCard as TaskCardData } from '@task-manager/shared';
import { Paperclip } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router-dom';
import { AvatarStack } from '../../../components/ui/avatar';
import { PriorityBadge, StatusBadge } from '../../../components/ui/badges';
import { DueDateText, OverdueBadge } from '../../../components/ui/due-date';
import { LabelChips } from '../../../components/ui/label-chips';
import { ProgressBar } from '../../../components/ui/feedback';
import { formatDate } from '../../../lib/format';
import { useT } from '../../../lib/i18n';

/** Where a card leads: the edit form (with the task id in navigation state) or the details page. */
export interface TaskCardTarget {
  to: string;
  state?: unknown;
}

/**
 * One task as a single link named by its title: badges, description, checklist progress, dates,
 * assignees (3 shown, then +N) and the attachment count.
 */
export function TaskCard({ task, target }: { task: TaskCardData; target: TaskCardTarget }) {
  const t = useT();
  const titleId = useId();
  const total = task.todoTotal;
  const attachments = task.attachmentCount;
  return (
    <Link
      to={target.to}
      state={target.state}
      aria-labelledby={titleId}
      className="flex h-full flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm transition-shadow hover:border-slate-300 hover:shadow-md"
    >
      <div className="flex flex-wrap items-center gap-2">
        <StatusBadge status={task.status} />
        <PriorityBadge priority={task.priority} />
        <OverdueBadge task={task} />
      </div>
      <div className="min-w-0">
        <h2
          id={titleId}
          className="line-clamp-2 text-base font-semibold break-words text-slate-900"
        >
          {task.title}
        </h2>
        <p className="mt-1 line-clamp-3 text-sm break-words text-slate-600">{task.description}</p>
        <LabelChips labels={task.labels} className="mt-2" />
      </div>
      <div className="flex flex-col gap-1.5">
        <p className="text-sm text-slate-700">
          {t('taskCard.taskDone')}{' '}
          <span className="font-semibold text-slate-900">
            {task.todoDone} / {total}
          </span>
        </p>
        <ProgressBar value={task.progress} />
      </div>
      <dl className="mt-auto flex justify-between gap-4 text-sm">
        <div>
          <dt className="text-slate-600">{t('taskCard.startDate')}</dt>
          <dd className="font-medium text-slate-900">{formatDate(task.createdAt)}</dd>
        </div>
        <div className="text-right">
          <dt className="text-slate-600">{t('taskCard.dueDate')}</dt>
          <dd>
            <DueDateText task={task} />
          </dd>
        </div>
      </dl>
      <div className="flex items-center justify-between gap-2">
        <AvatarStack people={task.assignedTo} max={3} />
        {attachments > 0 && (
          <span
            role="img"
            aria-label={t('taskCard.attachments', { count: attachments })}
            className="flex items-center gap-1 rounded-md bg-blue-50 px-2 py-1 text-sm font-medium text-blue-800"
          >
            <Paperclip size={14} aria-hidden />
            {attachments}
          </span>
        )}
      </div>
    </Link>
  );
}
