import type { TaskCard, TaskStatus } from '@task-manager/shared';
import { TASK_STATUSES } from '@task-manager/shared';
import { MoreHorizontal } from 'lucide-react';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router-dom';
import { AvatarStack } from '../../../components/ui/avatar';
import { PriorityBadge, useStatusName } from '../../../components/ui/badges';
import { DueDateText, OverdueBadge } from '../../../components/ui/due-date';
import { LabelChips } from '../../../components/ui/label-chips';
import { useT } from '../../../lib/i18n';

/** The data a dragged card carries: its id, under our own type so other drops are ignored. */
export const CARD_DRAG_TYPE = 'application/x-task-id';

/**
 * A card on the board: its title links to the task; it can be dragged to another column, or
 * moved with its "Move to..." menu (the keyboard way).
 */
export function BoardCard({
  task,
  href,
  moving,
  onMove,
  takeFocus = false,
  onFocusTaken,
}: {
  task: TaskCard;
  href: string;
  moving: boolean;
  onMove: (status: TaskStatus) => void;
  /** Focus its menu button once it can be used: the card just moved by its menu. */
  takeFocus?: boolean;
  onFocusTaken?: () => void;
}) {
  const t = useT();
  const titleId = useId();
  return (
    <li
      draggable={!moving}
      aria-labelledby={titleId}
      data-task-id={task._id}
      onDragStart={(event) => {
        event.dataTransfer.setData(CARD_DRAG_TYPE, task._id);
        event.dataTransfer.setData('text/plain', task._id);
        event.dataTransfer.effectAllowed = 'move';
      }}
      className={`flex cursor-grab flex-col gap-2 rounded-lg border border-slate-200 bg-white p-3 shadow-sm active:cursor-grabbing ${
        moving ? 'opacity-60' : ''
      }`}
    >
      <div className="flex items-start justify-between gap-2">
        <Link
          id={titleId}
          to={href}
          className="min-w-0 text-sm font-semibold break-words text-slate-900 hover:underline"
        >
          {task.title}
        </Link>
        <MoveMenu
          current={task.status}
          title={task.title}
          disabled={moving}
          onMove={onMove}
          takeFocus={takeFocus}
          onFocusTaken={onFocusTaken}
        />
      </div>
      <div className="flex flex-wrap items-center gap-1.5">
        <PriorityBadge priority={task.priority} />
        <OverdueBadge task={task} />
      </div>
      <LabelChips labels={task.labels} />
      <div className="flex items-center justify-between gap-2 text-xs">
        <span className="text-slate-600">
          {t('board.due')} <DueDateText task={task} />
        </span>
        <AvatarStack people={task.assignedTo} max={3} />
      </div>
    </li>
  );
}

/** A menu button: "Move to..." opens the other statuses; arrows move, Escape closes. */
function MoveMenu({
  current,
  title,
  disabled,
  onMove,
  takeFocus,
  onFocusTaken,
}: {
  current: TaskStatus;
  title: string;
  disabled: boolean;
  onMove: (status: TaskStatus) => void;
  takeFocus: boolean;
  onFocusTaken?: () => void;
}) {
  const t = useT();
  const statusName = useStatusName();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const items = useRef<(HTMLButtonElement | null)[]>([]);
  const targets = TASK_STATUSES.filter((status) => status !== current);

  useEffect(() => {
    if (open) items.current[0]?.focus();
  }, [open]);

  // A card moved by its menu is drawn anew in its new column (or back in its own when the move
  // failed): focus follows it there, once its button is enabled again.
  useEffect(() => {
    if (!takeFocus || disabled) return;
    button.current?.focus();
    onFocusTaken?.();
  }, [takeFocus, disabled, onFocusTaken]);

  function close() {
    setOpen(false);
    button.current?.focus();
  }

  function onKeyDown(event: KeyboardEvent, index: number) {
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      items.current[(index + step + targets.length) % targets.length]?.focus();
    }
  }

  return (
    <div
      className="relative shrink-0"
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={t('board.moveMenuFor', { title })}
        disabled={disabled}
        onClick={() => setOpen((value) => !value)}
        className="rounded p-1 text-slate-600 hover:bg-slate-100 hover:text-slate-900"
      >
        <MoreHorizontal size={16} aria-hidden />
      </button>
      {open && (
        <div
          id={menuId}
          role="menu"
          aria-label={t('board.moveMenu')}
          className="absolute right-0 z-10 mt-1 flex w-44 flex-col rounded-md border border-slate-200 bg-white py-1 shadow-lg"
        >
          {targets.map((status, index) => (
            <button
              key={status}
              ref={(element) => {
                items.current[index] = element;
              }}
              type="button"
              role="menuitem"
              tabIndex={-1}
              onKeyDown={(event) => onKeyDown(event, index)}
              onClick={() => {
                close();
                onMove(status);
              }}
              className="px-3 py-1.5 text-left text-sm text-slate-800 hover:bg-slate-100 focus:bg-slate-100"
            >
              {t('board.moveTo', { status: statusName(status) })}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
