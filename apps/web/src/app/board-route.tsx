import { useMemo } from 'react';
import { BoardPage } from '../features/board/pages/board-page';
import { TaskFilterBar } from '../features/tasks/components/task-filter-bar';
import { useTaskView } from '../features/tasks/hooks/use-task-list';
import { apiParams } from '../features/tasks/task-filters';
import { useSession } from '../lib/session';

/** The board asks for its columns this long after the last change of its filters. */
export const BOARD_FILTER_DEBOUNCE_MS = 200;

/**
 * /admin/board and /user/board: the board, narrowed by the task lists' filter bar. The view lives
 * in the URL as theirs does (a link or Back brings it again); each column is a status, so a
 * status in the link does not narrow it.
 */
export function BoardRoute() {
  const { user } = useSession();
  const view = useTaskView({ debounceMs: BOARD_FILTER_DEBOUNCE_MS });
  const { queriedFilters } = view;
  const params = useMemo(() => apiParams({ ...queriedFilters, status: 'All' }), [queriedFilters]);

  return (
    <BoardPage
      filters={params}
      updating={view.settling}
      toolbar={
        // Its own Clear button shows while a filter is set.
        <TaskFilterBar
          filters={view.filters}
          onChange={view.setFilters}
          showAssignee={user?.role === 'admin'}
        />
      }
    />
  );
}
