import { TASK_STATUSES, type TaskCard, type TaskStatus } from '@task-manager/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { useStatusName } from '../../../components/ui/badges';
import { Button } from '../../../components/ui/button';
import { ErrorState, Skeleton } from '../../../components/ui/feedback';
import { Modal } from '../../../components/ui/modal';
import { taskPathFor } from '../../../config/paths';
import { errorMessage } from '../../../lib/api-client';
import { uniqueById } from '../../../lib/infinite-paging';
import { useT } from '../../../lib/i18n';
import { invalidateAfter } from '../../../lib/invalidate-after';
import { useSession } from '../../../lib/session';
import {
  boardColumnQueryOptions,
  useBoardColumn,
  useMoveTask,
  type BoardFilterParams,
} from '../api/board';
import { BoardCard, CARD_DRAG_TYPE } from '../components/board-card';
import { notify } from '../../../lib/notify';

const NO_FILTERS: BoardFilterParams = {};

/** A card on its way to another column: shown there until the server has answered. */
type PendingMoves = Record<string, { task: TaskCard; to: TaskStatus }>;

/**
 * /admin/board and /user/board: a column per status, each narrowed by `filters` (the task
 * lists' filter bar, shown as `toolbar`: app/board-route.tsx wires them). A card moves by drag
 * and drop or with its "Move to..." menu, through PUT /api/tasks/:id/status; it shows in its new
 * column at once and snaps back, with the server's reason, when the move is refused (decision 007).
 */
export function BoardPage({
  filters: columnFilters = NO_FILTERS,
  toolbar,
  updating = false,
}: {
  filters?: BoardFilterParams;
  toolbar?: ReactNode;
  /** The filters are changing: the columns shown are not yet theirs. */
  updating?: boolean;
}) {
  const t = useT();
  const statusName = useStatusName();
  const { user } = useSession();
  const queryClient = useQueryClient();
  const moveTask = useMoveTask();
  const [moves, setMoves] = useState<PendingMoves>({});
  const [announcement, setAnnouncement] = useState('');
  // A move to Pending unticks every item, one to Completed ticks them all (decision 003): asked
  // first when that changes a checklist item.
  const [confirming, setConfirming] = useState<{ task: TaskCard; to: TaskStatus } | null>(null);
  // The card moved by its menu (the keyboard way): its menu button gets focus where it lands.
  const [focusTask, setFocusTask] = useState<string | null>(null);
  const focusTaken = useCallback(() => setFocusTask(null), []);

  /** A card of any column, as loaded (a drop names only the card's id). */
  function findLoadedTask(id: string): TaskCard | undefined {
    for (const status of TASK_STATUSES) {
      const data = queryClient.getQueryData(
        boardColumnQueryOptions(status, columnFilters).queryKey,
      );
      const task = data?.pages.flatMap((page) => page.tasks).find((each) => each._id === id);
      if (task) return task;
    }
    return undefined;
  }

  function move(task: TaskCard, to: TaskStatus, confirmed = false) {
    if (task.status === to || moves[task._id]) return;
    const unticks = to === 'Pending' && task.completedTodoCount > 0;
    const ticks = to === 'Completed' && task.todoTotal > task.todoDone;
    if ((unticks || ticks) && !confirmed) {
      setConfirming({ task, to });
      return;
    }
    setMoves((current) => ({ ...current, [task._id]: { task, to } }));
    const settle = () =>
      setMoves((current) => {
        const rest = { ...current };
        delete rest[task._id];
        return rest;
      });
    moveTask.mutate(
      { id: task._id, status: to },
      {
        onSuccess: () => {
          setAnnouncement(t('board.moved', { title: task.title, status: statusName(to) }));
          // The card leaves its pending state once the columns hold it where it now is.
          void invalidateAfter(queryClient, 'taskChange').finally(settle);
        },
        onError: (error) => {
          settle();
          const reason = errorMessage(error, t('board.moveFailed'));
          setAnnouncement(
            t('board.stays', { title: task.title, status: statusName(task.status), reason }),
          );
          notify('error', reason, { id: `move-${task._id}` });
        },
      },
    );
  }

  return (
    <section aria-labelledby="board-heading" className="flex flex-col gap-4">
      <h1 id="board-heading" className="text-xl font-semibold text-slate-900">
        {t('board.heading')}
      </h1>
      <p role="status" className="sr-only">
        {announcement}
      </p>
      {toolbar}
      {/* On a phone, the columns sit side by side and scroll sideways, one in view with the
          next one's edge showing, instead of stacking into one long page. */}
      <div
        aria-busy={updating}
        className="-mx-4 flex snap-x snap-mandatory gap-4 overflow-x-auto px-4 pb-2 md:mx-0 md:grid md:grid-cols-3 md:overflow-visible md:px-0 md:pb-0"
      >
        {TASK_STATUSES.map((status) => (
          <BoardColumn
            key={status}
            status={status}
            filters={columnFilters}
            moves={moves}
            hrefFor={(task) => taskPathFor(user?.role, task._id)}
            onMove={(task, to) => {
              setFocusTask(task._id);
              move(task, to);
            }}
            focusTask={focusTask}
            onFocusTaken={focusTaken}
            onDrop={(id, to) => {
              const task = findLoadedTask(id);
              if (task) move(task, to);
            }}
          />
        ))}
      </div>
      <Modal
        open={confirming !== null}
        title={
          confirming?.to === 'Completed'
            ? t('board.confirmCompletedTitle')
            : t('board.confirmTitle')
        }
        onClose={() => setConfirming(null)}
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirming(null)}>
              {t('common.cancel')}
            </Button>
            <Button
              onClick={() => {
                if (confirming) {
                  setFocusTask(confirming.task._id);
                  move(confirming.task, confirming.to, true);
                }
                setConfirming(null);
              }}
            >
              {confirming?.to === 'Completed'
                ? t('board.confirmCompletedButton')
                : t('board.confirmButton')}
            </Button>
          </>
        }
      >
        <p className="text-sm text-slate-800">
          {confirming?.to === 'Completed'
            ? t('board.confirmCompletedText', {
                title: confirming.task.title,
                count: confirming.task.todoTotal - confirming.task.todoDone,
              })
            : t('board.confirmText', {
                title: confirming?.task.title ?? '',
                count: confirming?.task.completedTodoCount ?? 0,
              })}
        </p>
      </Modal>
    </section>
  );
}

function BoardColumn({
  status,
  filters,
  moves,
  hrefFor,
  onMove,
  onDrop,
  focusTask,
  onFocusTaken,
}: {
  status: TaskStatus;
  filters: BoardFilterParams;
  moves: PendingMoves;
  hrefFor: (task: TaskCard) => string;
  onMove: (task: TaskCard, to: TaskStatus) => void;
  focusTask: string | null;
  onFocusTaken: () => void;
  /** A card (by id) dropped on this column. */
  onDrop: (id: string, to: TaskStatus) => void;
}) {
  const t = useT();
  const statusName = useStatusName();
  const query = useBoardColumn(status, filters);
  const [dropping, setDropping] = useState(false);
  const pages = query.data?.pages;
  const loaded = useMemo(
    () => (pages ? uniqueById(pages.map((page) => page.tasks)) : undefined),
    [pages],
  );
  const count = pages?.[0]?.statusSummary;
  const tasks = useMemo(() => {
    if (!loaded) return undefined;
    const incoming = Object.values(moves)
      .filter((pending) => pending.to === status)
      .map((pending) => ({ ...pending.task, status }));
    const staying = loaded.filter(
      (task) => !moves[task._id] && !incoming.some((moved) => moved._id === task._id),
    );
    return [...incoming, ...staying];
  }, [loaded, moves, status]);
  const headingId = `board-column-${status.replace(/\s+/g, '-').toLowerCase()}`;
  const total =
    count &&
    {
      Pending: count.pendingTasks,
      'In Progress': count.inProgressTasks,
      Completed: count.completedTasks,
    }[status];

  return (
    <section
      aria-labelledby={headingId}
      data-status={status}
      onDragOver={(event) => {
        if (!event.dataTransfer.types.includes(CARD_DRAG_TYPE)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'move';
        setDropping(true);
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDropping(false);
      }}
      onDrop={(event) => {
        event.preventDefault();
        setDropping(false);
        onDrop(event.dataTransfer.getData(CARD_DRAG_TYPE), status);
      }}
      className={`flex min-h-[12rem] w-[85%] shrink-0 snap-start flex-col gap-3 rounded-lg border p-3 md:w-auto ${
        dropping ? 'border-blue-600 bg-blue-50' : 'border-slate-200 bg-slate-50'
      }`}
    >
      <h2 id={headingId} className="flex items-center gap-2 font-semibold text-slate-900">
        {statusName(status)}
        {total !== undefined && (
          <span className="rounded-full bg-slate-200 px-2 py-0.5 text-xs font-medium text-slate-800">
            {total}
          </span>
        )}
      </h2>
      {tasks ? (
        <ul aria-labelledby={headingId} className="flex flex-col gap-2">
          {tasks.map((task) => (
            <BoardCard
              key={task._id}
              task={task}
              href={hrefFor(task)}
              moving={Boolean(moves[task._id])}
              onMove={(to) => onMove(task, to)}
              takeFocus={focusTask === task._id}
              onFocusTaken={onFocusTaken}
            />
          ))}
        </ul>
      ) : query.isError ? (
        <ErrorState message={t('board.loadFailed')} onRetry={() => void query.refetch()} />
      ) : (
        <div
          aria-busy="true"
          aria-label={t('board.loadingColumn', { status: statusName(status) })}
          className="flex flex-col gap-2"
        >
          <Skeleton className="h-24" />
          <Skeleton className="h-24" />
        </div>
      )}
      {query.hasNextPage && (
        <Button
          variant="secondary"
          disabled={query.isFetchingNextPage}
          onClick={() => void query.fetchNextPage()}
        >
          {t('board.loadMore')}
        </Button>
      )}
    </section>
  );
}
