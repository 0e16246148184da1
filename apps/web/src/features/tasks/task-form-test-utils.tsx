import type { Assignee, Task } from '@task-manager/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import {
  AxiosError,
  AxiosHeaders,
  type AxiosAdapter,
  type InternalAxiosRequestConfig,
} from 'axios';
import type { ReactElement } from 'react';
import { Toaster } from 'react-hot-toast';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { api } from '../../lib/api-client';

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

export interface Call {
  method: string;
  url: string;
  body: unknown;
}

type Reply = { status: number; data: unknown };

/**
 * Answers the app's axios calls in memory: `answer` maps "METHOD url" to a reply (or a function
 * making one). Every call is recorded.
 */
export function fakeServer(answer: (call: Call) => Reply | undefined) {
  const calls: Call[] = [];
  const adapter: AxiosAdapter = async (config: InternalAxiosRequestConfig) => {
    const call: Call = {
      method: (config.method ?? 'get').toUpperCase(),
      url: config.url ?? '',
      body: typeof config.data === 'string' ? JSON.parse(config.data) : config.data,
    };
    calls.push(call);
    const reply = answer(call) ?? { status: 404, data: { message: 'Not found' } };
    const response = {
      data: reply.data,
      status: reply.status,
      statusText: String(reply.status),
      headers: new AxiosHeaders(),
      config,
    };
    if (reply.status >= 400) {
      throw new AxiosError('Request failed', 'ERR_BAD_RESPONSE', config, null, response);
    }
    return response;
  };
  const previous = api.defaults.adapter;
  api.defaults.adapter = adapter;
  return { calls, restore: () => (api.defaults.adapter = previous) };
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
