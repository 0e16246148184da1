import type { Assignee, Task, TaskListResponse } from '@task-manager/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Toaster } from 'react-hot-toast';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { createQueryClient } from '../../../lib/query-client';

let sequence = 0;

export function buildAssignee(overrides: Partial<Assignee> = {}): Assignee {
  sequence += 1;
  return {
    _id: `user-${sequence}`,
    name: `Member ${sequence}`,
    email: `member${sequence}@example.com`,
    profileImageUrl: null,
    ...overrides,
  };
}

export function buildTask(overrides: Partial<Task> = {}): Task {
  sequence += 1;
  return {
    _id: `task-${sequence}`,
    title: `Task ${sequence}`,
    description: 'Write the quarterly plan',
    priority: 'Medium',
    status: 'In Progress',
    progress: 33,
    dueDate: '2025-03-15T00:00:00.000Z',
    createdBy: 'admin-1',
    assignedTo: [buildAssignee()],
    todoChecklist: [
      { _id: 'todo-1', text: 'Draft', completed: true },
      { _id: 'todo-2', text: 'Review', completed: false },
      { _id: 'todo-3', text: 'Publish', completed: false },
    ],
    attachments: [],
    completedTodoCount: 1,
    createdAt: '2025-01-01T10:00:00.000Z',
    updatedAt: '2025-01-01T10:00:00.000Z',
    ...overrides,
  };
}

/** A list answer (the last page) whose summary counts the given tasks, unless one is given. */
export function buildTaskList(
  tasks: Task[],
  statusSummary?: TaskListResponse['statusSummary'],
): TaskListResponse {
  return {
    tasks,
    nextCursor: null,
    statusSummary: statusSummary ?? {
      all: tasks.length,
      pendingTasks: tasks.filter((task) => task.status === 'Pending').length,
      inProgressTasks: tasks.filter((task) => task.status === 'In Progress').length,
      completedTasks: tasks.filter((task) => task.status === 'Completed').length,
    },
  };
}

/**
 * The server's answer to one GET /api/tasks: the tasks of `params.status` (all when absent),
 * `params.limit` of them from the offset in `params.cursor`, the counts of every task, and the
 * next offset as `nextCursor` (null on the last page). `tasks` are newest first already.
 */
export function taskPageFor(
  tasks: Task[],
  params: Record<string, unknown> | undefined,
): TaskListResponse {
  const matching = tasks.filter((task) => !params?.status || task.status === params.status);
  const start = Number(params?.cursor ?? 0);
  const end = start + Number(params?.limit ?? 100);
  return {
    ...buildTaskList(tasks),
    tasks: matching.slice(start, end),
    nextCursor: end < matching.length ? String(end) : null,
  };
}

/** Shows where a card led, and the navigation state it carried. */
function LocationProbe() {
  const location = useLocation();
  return (
    <output aria-label="Location">
      {location.pathname} {JSON.stringify(location.state ?? null)}
    </output>
  );
}

/** Renders a page as the app does: a query client, a router at `path`, and the toaster. */
export function renderPage(page: ReactElement, path: string) {
  const queryClient: QueryClient = createQueryClient();
  const result = render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={path} element={page} />
          <Route path="*" element={<LocationProbe />} />
        </Routes>
      </MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  );
  return { ...result, queryClient };
}
