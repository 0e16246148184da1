import type { TaskCard as TaskCardData } from '@task-manager/shared';
import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { EmptyState, ErrorState } from '../../../components/ui/feedback';
import { VirtualGrid } from '../../../components/ui/virtual-grid';
import { useT } from '../../../lib/i18n';
import { pagingOf } from '../../../lib/infinite-paging';
import type { useTaskList } from '../hooks/use-task-list';
import { countFor, StatusTabs, tabIdFor } from './status-tabs';
import { TaskFilterBar } from './task-filter-bar';
import { TaskCard, type TaskCardTarget } from './task-card';
import { EmptyTab, TASK_GRID_COLUMNS, TaskListSkeleton } from './task-list-states';

const ID_PREFIX = 'task-status';
const PANEL_ID = `${ID_PREFIX}-panel`;
/** A card's height with a two-line title and a three-line description, before it is measured. */
const ESTIMATED_ROW_PX = 290;

/**
 * Status tabs over the grid of task cards, with the loading, error and empty states. Shared by
 * the admin's Manage Tasks page and the member's My Tasks page. The grid renders only the rows
 * near the screen and loads the next page as the person scrolls towards the end.
 */
export function TaskList({
  list,
  targetFor,
  noTasks,
  showAssignee = false,
}: {
  list: ReturnType<typeof useTaskList>;
  targetFor: (task: TaskCardData) => TaskCardTarget;
  /** What to show when there are no tasks at all. */
  noTasks: ReactNode;
  /** The filter bar offers the assignee (admins see everyone's tasks). */
  showAssignee?: boolean;
}) {
  const t = useT();
  const { status, setStatus, query, tasks, summary, queriedStatus, isUpdating, filtered } = list;

  let content: ReactNode;
  if (query.isPending || (query.isError && !tasks && query.isFetching)) {
    content = <TaskListSkeleton />;
  } else if (!tasks || !summary) {
    // Worded apart from the failure toast, so each is found by its own text.
    content = <ErrorState message={t('tasks.notLoaded')} onRetry={() => void query.refetch()} />;
  } else if (filtered && summary.all === 0 && tasks.length === 0) {
    content = isUpdating ? (
      <TaskListSkeleton />
    ) : (
      <EmptyState title={t('tasks.noMatching')}>
        <Button
          variant="secondary"
          onClick={() => list.setFilters({ q: '', assignee: '', priority: [], label: [], due: '' })}
        >
          {t('tasks.clearFilters')}
        </Button>
      </EmptyState>
    );
  } else if (summary.all === 0 && tasks.length === 0) {
    content = noTasks;
  } else if (tasks.length === 0) {
    // While the list is still the previous tab's, its emptiness says nothing about this tab.
    content = isUpdating ? <TaskListSkeleton /> : <EmptyTab status={status} />;
  } else {
    // The whole list's size: unknown while the list is the previous tab's placeholder, the
    // tab's count while pages remain, and what is loaded once all is.
    let total = -1;
    if (!query.isPlaceholderData) {
      total = query.hasNextPage ? countFor(summary, queriedStatus) : tasks.length;
    }
    content = (
      <VirtualGrid
        items={tasks}
        total={total}
        columns={TASK_GRID_COLUMNS}
        estimateRowHeight={ESTIMATED_ROW_PX}
        keyOf={(task) => task._id}
        renderItem={(task) => <TaskCard task={task} target={targetFor(task)} />}
        loadingMoreText={t('tasks.loadingMore')}
        loadMoreFailedText={t('tasks.moreNotLoaded')}
        {...pagingOf(query)}
      />
    );
  }

  return (
    <div className="flex flex-col gap-4">
      <TaskFilterBar
        filters={list.filters}
        onChange={list.setFilters}
        showAssignee={showAssignee}
      />
      <StatusTabs
        selected={status}
        onSelect={setStatus}
        summary={summary}
        idPrefix={ID_PREFIX}
        panelId={PANEL_ID}
      />
      <div
        role="tabpanel"
        id={PANEL_ID}
        aria-labelledby={tabIdFor(ID_PREFIX, status)}
        // A next page only adds cards below: what is shown stays readable meanwhile.
        aria-busy={isUpdating || (query.isFetching && !query.isFetchingNextPage)}
        className={`transition-opacity ${isUpdating ? 'opacity-60' : ''}`}
      >
        {content}
      </div>
    </div>
  );
}
