import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildTask, buildTaskCardList, buildUser } from '../../../test/factories';
import { renderPage } from '../../../test/render-page';
import { stubApi } from '../../../test/stub-api';
import { filtersFromSearch, searchFromFilters } from '../task-filters';
import { ManageTasksPage } from './manage-tasks-page';
import { MyTasksPage } from './my-tasks-page';

const label = { _id: '00000000-0000-4000-8000-00000000aaaa', name: 'Backend', color: '#1d4ed8' };
const overdue = buildTask({
  title: 'Late task',
  status: 'Pending',
  dueDate: '2020-01-01T00:00:00.000Z',
  labels: [label],
});

async function advance(ms: number) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
}

function serve() {
  return stubApi((request) => {
    if (request.url === '/api/labels') return { status: 200, data: [label] };
    if (request.url === '/api/users') return { status: 200, data: [] };
    return { status: 200, data: buildTaskCardList([overdue]) };
  });
}

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: false });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the task filters', () => {
  it('read a view from the URL and write it back, leaving unknown values out', () => {
    const filters = filtersFromSearch(
      new URLSearchParams('status=Pending&priority=High,Bogus&due=yesterday&sort=title&q=deplo'),
    );
    expect(filters).toMatchObject({
      status: 'Pending',
      priority: ['High'],
      due: '',
      sort: 'title',
      q: 'deplo',
    });
    expect(searchFromFilters(filters)).toBe('?status=Pending&q=deplo&priority=High&sort=title');
  });

  it('ask the API for the view in the URL', async () => {
    const stub = serve();
    renderPage(<ManageTasksPage />, {
      path: '/admin/tasks?status=Pending&priority=High,Medium&due=week&label=' + label._id,
      route: '/admin/tasks',
      signedInAs: buildUser({ role: 'admin' }),
    });
    await advance(0);
    const list = stub.requests.find((request) => request.url === '/api/tasks')!;
    expect(list.params).toMatchObject({
      status: 'Pending',
      priority: 'High,Medium',
      due: 'week',
      label: label._id,
      tz: expect.any(String) as string,
    });
    expect(screen.getByRole('tab', { name: 'Pending 1' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('checkbox', { name: 'High' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Backend' })).toBeChecked();
  });

  it('drop a label deleted since the link was made, and say so', async () => {
    const gone = '00000000-0000-4000-8000-00000000dead';
    // As the API does: a label id that does not exist is refused.
    const stub = stubApi((request) => {
      if (request.url === '/api/labels') return { status: 200, data: [label] };
      if (request.url === '/api/users') return { status: 200, data: [] };
      if (String(request.params?.label).includes(gone)) {
        return { status: 400, data: { message: 'label: no label has this id', code: 'invalid' } };
      }
      return { status: 200, data: buildTaskCardList([overdue]) };
    });
    renderPage(<ManageTasksPage />, {
      path: `/admin/tasks?label=${gone},${label._id}`,
      route: '/admin/tasks',
      signedInAs: buildUser({ role: 'admin' }),
    });
    await advance(0);
    await advance(0);
    const lists = stub.requests.filter((request) => request.url === '/api/tasks');
    // Asked again without the missing label, which the API would refuse.
    expect(lists.at(-1)!.params?.label).toBe(label._id);
    expect(
      screen.getByText('A label in this link no longer exists: the list shows the other filters.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Backend' })).toBeChecked();
    expect(screen.getByRole('link', { name: 'Late task' })).toBeInTheDocument();
  });

  it('search once typing pauses, with every filter the person picks', async () => {
    const stub = serve();
    renderPage(<MyTasksPage />, { path: '/user/tasks' });
    await advance(0);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search' }), {
      target: { value: 'deplo' },
    });
    await advance(100);
    expect(stub.requests.filter((request) => request.params?.q)).toHaveLength(0);
    await advance(300);
    await advance(300);
    expect(stub.requests.filter((request) => request.url === '/api/tasks').at(-1)!.params).toEqual({
      view: 'card',
      limit: 100,
      q: 'deplo',
    });
    fireEvent.change(screen.getByRole('combobox', { name: 'Due' }), {
      target: { value: 'overdue' },
    });
    await advance(200);
    expect(stub.requests.filter((request) => request.url === '/api/tasks').at(-1)!.params).toEqual({
      view: 'card',
      limit: 100,
      q: 'deplo',
      due: 'overdue',
    });
    // The member's bar has no assignee: they only ever see their own tasks.
    expect(screen.queryByRole('combobox', { name: 'Assignee' })).not.toBeInTheDocument();
  });

  it('keep a filter picked while the search still waits for typing to pause', async () => {
    const stub = serve();
    renderPage(<MyTasksPage />, { path: '/user/tasks' });
    await advance(0);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search' }), {
      target: { value: 'report' },
    });
    await advance(50);
    fireEvent.click(screen.getByRole('checkbox', { name: 'High' }));
    await advance(300);
    await advance(300);
    expect(stub.requests.filter((request) => request.url === '/api/tasks').at(-1)!.params).toEqual({
      view: 'card',
      limit: 100,
      q: 'report',
      priority: 'High',
    });
    expect(screen.getByRole('checkbox', { name: 'High' })).toBeChecked();
  });

  it('mark an overdue task and show its labels on the card', async () => {
    serve();
    renderPage(<MyTasksPage />, { path: '/user/tasks', signedInAs: buildUser() });
    await advance(0);
    const card = screen.getByRole('link', { name: 'Late task' });
    expect(card).toHaveTextContent('Overdue');
    expect(card).toHaveTextContent('Backend');
    expect(card.querySelector('[data-due="overdue"]')).toHaveClass('text-red-700');
  });
});
