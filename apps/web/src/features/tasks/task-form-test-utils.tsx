import type { Assignee, Task } from '@task-manager/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Toaster } from 'react-hot-toast';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { stubApi, type RecordedRequest } from '../../test/stub-api';
import type { UserChoices } from './components/user-picker';
import type { AssigneeOption } from './task-form-rules';

type Reply = { status: number; data: unknown };

let sequence = 0;

/** A valid user id (the shared schema wants UUIDs), different on every call. */
export function uuid(): string {
  sequence += 1;
  return `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`;
}

export function buildPerson(overrides: Partial<Assignee> = {}): Assignee {
  const _id = overrides._id ?? uuid();
  return {
    _id,
    name: `Person ${_id.slice(-4)}`,
    email: `person${_id.slice(-4)}@example.com`,
    profileImageUrl: null,
    ...overrides,
  };
}

export function buildTask(overrides: Partial<Task> = {}): Task {
  return {
    _id: uuid(),
    title: 'Prepare the launch',
    description: 'Everything the launch needs.',
    priority: 'High',
    status: 'In Progress',
    progress: 50,
    dueDate: '2031-06-15T00:00:00.000Z',
    createdBy: null,
    assignedTo: [buildPerson({ name: 'Mia Member' })],
    todoChecklist: [
      { _id: uuid(), text: 'Write the draft', completed: true },
      { _id: uuid(), text: 'Review the draft', completed: false },
    ],
    attachments: [],
    completedTodoCount: 1,
    createdAt: '2031-01-01T10:00:00.000Z',
    updatedAt: '2031-01-01T10:00:00.000Z',
    ...overrides,
  };
}

/** The user picker's choices when every user is on one page and no search is typed. */
export function onePageOfUsers(users: readonly AssigneeOption[]): UserChoices {
  return {
    users,
    loading: false,
    failed: false,
    onRetry: () => {},
    search: '',
    onSearch: () => {},
    searching: false,
    paging: { canLoadMore: false, loadingMore: false, loadMoreFailed: false, onLoadMore: () => {} },
  };
}

export type Call = RecordedRequest;

/** The app's axios calls answered in memory by `answer`; a call it leaves unanswered gets a 404. */
export function fakeServer(answer: (call: Call) => Reply | undefined) {
  const { requests, restore } = stubApi(
    (call) => answer(call) ?? { status: 404, data: { message: 'Not found' } },
  );
  return { calls: requests, restore };
}

/**
 * Renders a page at `path` (matching `route`, with optional navigation state) with a fresh query
 * client and the toaster; any other path shows "Moved to <path>".
 */
export function renderPage(
  element: ReactElement,
  { route, path, state }: { route: string; path: string; state?: unknown },
) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const result = render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[{ pathname: path, state }]}>
        <Routes>
          <Route path={route} element={element} />
          <Route path="*" element={<Moved />} />
        </Routes>
      </MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  );
  return { ...result, queryClient };
}

function Moved() {
  return <p>Moved to {useLocation().pathname}</p>;
}
