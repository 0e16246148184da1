import { act, fireEvent, screen, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { captureDownloads } from '../../../test/downloads';
import { buildTask, buildTaskCardList, taskPageFor, toTaskCard } from '../../../test/factories';
import { renderPage } from '../../../test/render-page';
import {
  stubApi as stubEveryRequest,
  type RecordedRequest,
  type Respond,
} from '../../../test/stub-api';
import { fakeWindowLayout } from '../../../test/window-layout';
import { ManageTasksPage } from './manage-tasks-page';
import { MyTasksPage } from './my-tasks-page';

const pending = buildTask({ title: 'Write the brief', status: 'Pending' });
const started = buildTask({ title: 'Design the flow', status: 'In Progress' });
const done = buildTask({ title: 'Ship the release', status: 'Completed' });
const everyTask = buildTaskCardList([pending, started, done]);

/** The server's answer: filtered tasks, counts of every task. */
function listFor(request: RecordedRequest) {
  const status = request.params?.status;
  const tasks = everyTask.tasks.filter((task) => !status || task.status === status);
  return { status: 200, data: { ...everyTask, tasks } };
}

/**
 * The server for these pages: the filter bar's labels and people (none here), and the task list
 * as `respond` answers it.
 */
function stubApi(respond: Respond) {
  return stubEveryRequest((request) => {
    if (request.url === '/api/labels') return { status: 200, data: [] };
    if (request.url === '/api/users') return { status: 200, data: [] };
    return respond(request);
  });
}

let stub: ReturnType<typeof stubApi> | undefined;

async function advance(ms: number) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
}

function listRequests() {
  return stub!.requests.filter((request) => request.url === '/api/tasks');
}

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: false });
});

afterEach(() => {
  stub = undefined;
  act(() => toast.remove());
  vi.useRealTimers();
});

describe.each([
  { name: 'ManageTasksPage (admin)', Page: ManageTasksPage, path: '/admin/tasks', debounce: 200 },
  { name: 'MyTasksPage (member)', Page: MyTasksPage, path: '/user/tasks', debounce: 100 },
])('$name', ({ Page, path, debounce }) => {
  it('shows the heading, skeletons, then the cards and the counts of every status', async () => {
    stub = stubApi(listFor);
    renderPage(<Page />, { path });
    expect(screen.getByRole('heading', { level: 1, name: 'My Task' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Loading tasks');
    await advance(0);
    expect(listRequests()).toEqual([
      expect.objectContaining({ params: { view: 'card', limit: 100 } }),
    ]);
    const panel = screen.getByRole('tabpanel', { name: 'All 3' });
    expect(
      within(panel)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toHaveLength(3);
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
      'All 3',
      'Pending 1',
      'In Progress 1',
      'Completed 1',
    ]);
  });

  it(`asks for the list once, ${debounce} ms after the last of fast tab changes`, async () => {
    stub = stubApi(listFor);
    renderPage(<Page />, { path });
    await advance(0);
    expect(listRequests()).toHaveLength(1);

    fireEvent.click(screen.getByRole('tab', { name: /Pending/ }));
    await advance(debounce / 2);
    fireEvent.click(screen.getByRole('tab', { name: /In Progress/ }));
    await advance(debounce / 2);
    fireEvent.click(screen.getByRole('tab', { name: /Completed/ }));
    expect(screen.getByRole('tab', { selected: true })).toHaveAccessibleName('Completed 1');
    await advance(debounce - 1);
    expect(listRequests()).toHaveLength(1);
    // Meanwhile the previous list stays on screen, marked busy.
    expect(screen.getByRole('tabpanel')).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('link', { name: 'Write the brief' })).toBeInTheDocument();

    await advance(1);
    expect(listRequests()).toHaveLength(2);
    expect(listRequests()[1]!.params).toEqual({ view: 'card', limit: 100, status: 'Completed' });
    await advance(debounce * 3);
    expect(listRequests()).toHaveLength(2);
    expect(screen.getAllByRole('link').map((link) => link.textContent)).toEqual([
      expect.stringContaining('Ship the release'),
    ]);
    expect(screen.getByRole('tabpanel')).toHaveAttribute('aria-busy', 'false');
  });

  it('shows "No tasks yet" when there are no tasks at all', async () => {
    stub = stubApi(() => ({ status: 200, data: buildTaskCardList([]) }));
    renderPage(<Page />, { path });
    await advance(0);
    expect(screen.getByText('No tasks yet')).toBeInTheDocument();
  });

  it('says when a tab has no tasks while others do', async () => {
    stub = stubApi((request) => ({
      status: 200,
      data: request.params?.status ? { ...everyTask, tasks: [] } : everyTask,
    }));
    renderPage(<Page />, { path });
    await advance(0);
    fireEvent.click(screen.getByRole('tab', { name: /Pending/ }));
    await advance(debounce);
    await advance(10);
    expect(screen.getByText('No pending tasks')).toBeInTheDocument();
    expect(screen.queryByText('No tasks yet')).not.toBeInTheDocument();
  });
});

describe.each([
  { name: 'ManageTasksPage (admin)', Page: ManageTasksPage, path: '/admin/tasks' },
  { name: 'MyTasksPage (member)', Page: MyTasksPage, path: '/user/tasks' },
])('$name with 250 tasks', { timeout: 30_000 }, ({ Page, path }) => {
  // Newest first, as the server sends them; every third one Pending.
  const many = Array.from({ length: 250 }, (_, index) =>
    buildTask({
      title: `Long list task ${index + 1}`,
      status: index % 3 ? 'In Progress' : 'Pending',
    }),
  );
  /** The row height given to jsdom (the grid's estimate, so nothing is re-measured) and the gap. */
  const ROW = 290;
  const rowTop = (row: number) => row * (ROW + 16);
  let layout: ReturnType<typeof fakeWindowLayout>;

  beforeEach(() => {
    layout = fakeWindowLayout({ rowHeight: ROW });
  });
  afterEach(() => layout.restore());

  const cards = () => screen.getAllByRole('listitem');
  const cursors = () => listRequests().map((request) => request.params?.cursor);

  it('asks for the next page with the cursor only as the end nears, and shows each task once', async () => {
    stub = stubApi((request) => ({ status: 200, data: taskPageFor(many, request.params) }));
    renderPage(<Page />, { path });
    await advance(0);
    expect(cursors()).toEqual([undefined]);
    // One column in jsdom (no media query matches): the screen and a few rows around it.
    expect(cards().length).toBeGreaterThan(0);
    expect(cards().length).toBeLessThan(10);
    expect(cards()[0]).toHaveAttribute('aria-posinset', '1');
    for (const card of cards()) expect(card).toHaveAttribute('aria-setsize', '250');
    // The counts are the first page's summary of every task, not of the 100 loaded.
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
      'All 250',
      'Pending 84',
      'In Progress 166',
      'Completed 0',
    ]);

    layout.scrollWindowTo(rowTop(50));
    await advance(0);
    expect(screen.getByRole('link', { name: 'Long list task 51' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Long list task 1' })).not.toBeInTheDocument();
    expect(cursors()).toEqual([undefined]);

    layout.scrollWindowTo(rowTop(96));
    await advance(0);
    expect(cursors()).toEqual([undefined, '100']);
    layout.scrollWindowTo(rowTop(196));
    await advance(0);
    expect(cursors()).toEqual([undefined, '100', '200']);

    layout.scrollWindowTo(rowTop(249));
    await advance(0);
    // The last page has no next cursor: nothing more is asked for.
    expect(cursors()).toEqual([undefined, '100', '200']);
    expect(screen.getByRole('link', { name: 'Long list task 250' })).toBeInTheDocument();
    const positions = cards().map((card) => Number(card.getAttribute('aria-posinset')));
    expect(positions.at(-1)).toBe(250);
    const titles = screen.getAllByRole('link').map((link) => link.getAttribute('aria-labelledby'));
    expect(new Set(titles).size).toBe(titles.length);
    expect(new Set(positions).size).toBe(positions.length);
    for (const [index, card] of cards().entries()) {
      expect(card).toHaveTextContent(`Long list task ${positions[index]}`);
    }
  });

  it('shows each task once when pages overlap', async () => {
    // A task added meanwhile pushes the last of page 1 onto page 2 as well.
    stub = stubApi((request) => {
      const page = taskPageFor(many, request.params);
      return {
        status: 200,
        data: request.params?.cursor
          ? { ...page, tasks: [toTaskCard(many[99]!), ...page.tasks] }
          : page,
      };
    });
    renderPage(<Page />, { path });
    await advance(0);
    layout.scrollWindowTo(rowTop(96));
    await advance(0);
    expect(cursors()).toEqual([undefined, '100']);
    layout.scrollWindowTo(rowTop(99));
    await advance(0);
    const around = cards().map((card) => card.textContent);
    expect(around.filter((text) => text?.includes('Long list task 100 '))).toHaveLength(0);
    expect(screen.getAllByRole('link', { name: 'Long list task 100' })).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Long list task 101' })).toBeInTheDocument();
  });

  it('takes the counts of a tab from its own first page', async () => {
    stub = stubApi((request) => ({ status: 200, data: taskPageFor(many, request.params) }));
    renderPage(<Page />, { path });
    await advance(0);
    fireEvent.click(screen.getByRole('tab', { name: /Pending/ }));
    await advance(200);
    // While the Pending list loads, the All list stays, and its size is not the Pending count.
    expect(cards()[0]).toHaveAttribute('aria-setsize', '-1');
    await advance(10);
    expect(listRequests().at(-1)!.params).toEqual({ view: 'card', limit: 100, status: 'Pending' });
    expect(screen.getByRole('tab', { selected: true })).toHaveAccessibleName('Pending 84');
    expect(cards()[0]).toHaveAttribute('aria-setsize', '84');
    expect(cards()[0]).toHaveTextContent('Long list task 1');
  });
});

describe('MyTasksPage (member) when a next page fails', { timeout: 30_000 }, () => {
  const many = Array.from({ length: 150 }, (_, index) =>
    buildTask({ title: `Paged task ${index + 1}` }),
  );
  let layout: ReturnType<typeof fakeWindowLayout>;
  beforeEach(() => {
    layout = fakeWindowLayout({ rowHeight: 290 });
  });
  afterEach(() => layout.restore());

  it('shows an error row with Retry, which asks for the same page again', async () => {
    let failing = true;
    // The failure comes 50 ms later, so the loading row can be seen first.
    const failLater = () =>
      new Promise<{ status: number; data: unknown }>((resolve) =>
        setTimeout(() => resolve({ status: 500, data: {} }), 50),
      );
    stub = stubApi((request) =>
      request.params?.cursor && failing
        ? failLater()
        : { status: 200, data: taskPageFor(many, request.params) },
    );
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderPage(<MyTasksPage />, { path: '/user/tasks' });
    await advance(0);
    layout.scrollWindowTo(99 * 306);
    await advance(0);
    expect(screen.getByText('Loading more tasks')).toBeInTheDocument();
    await advance(60);
    expect(screen.getByRole('alert')).toHaveTextContent('More tasks could not be loaded.');
    // The cards already loaded stay; no request is repeated on its own.
    expect(screen.getByRole('link', { name: 'Paged task 100' })).toBeInTheDocument();
    await advance(5000);
    expect(listRequests()).toHaveLength(2);

    failing = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await advance(10);
    expect(listRequests().map((request) => request.params?.cursor)).toEqual([
      undefined,
      '100',
      '100',
    ]);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    layout.scrollWindowTo(149 * 306);
    await advance(0);
    expect(screen.getByRole('link', { name: 'Paged task 150' })).toBeInTheDocument();
  });
});

describe('ManageTasksPage (admin)', () => {
  it('opens a task on its own page, a link anyone can share', async () => {
    stub = stubApi(listFor);
    renderPage(<ManageTasksPage />, { path: '/admin/tasks' });
    await advance(0);
    fireEvent.click(screen.getByRole('link', { name: 'Design the flow' }));
    expect(screen.getByRole('status', { name: 'Location' })).toHaveTextContent(
      `/admin/tasks/${started._id} null`,
    );
  });

  it('offers a way to create the first task', async () => {
    stub = stubApi(() => ({ status: 200, data: buildTaskCardList([]) }));
    renderPage(<ManageTasksPage />, { path: '/admin/tasks' });
    await advance(0);
    expect(screen.getByRole('link', { name: 'Create a task' })).toHaveAttribute(
      'href',
      '/admin/create-task',
    );
  });

  it('retries a failed list once after 1 s, then toasts and offers Retry', async () => {
    let failing = true;
    stub = stubApi((request) => (failing ? { status: 500, data: {} } : listFor(request)));
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderPage(<ManageTasksPage />, { path: '/admin/tasks' });
    await advance(0);
    expect(listRequests()).toHaveLength(1);
    await advance(999);
    expect(listRequests()).toHaveLength(1);
    expect(screen.queryByText('Failed to fetch tasks. Please try again.')).not.toBeInTheDocument();
    await advance(1);
    expect(listRequests()).toHaveLength(2);
    await advance(10);
    expect(screen.getByRole('alert')).toHaveTextContent('The tasks could not be loaded.');
    expect(screen.getByText('Failed to fetch tasks. Please try again.')).toBeInTheDocument();

    failing = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await advance(10);
    expect(screen.getByRole('link', { name: 'Ship the release' })).toBeInTheDocument();
  });
});

describe('MyTasksPage (member)', () => {
  it('opens a task on its details page', async () => {
    stub = stubApi(listFor);
    renderPage(<MyTasksPage />, { path: '/user/tasks' });
    await advance(0);
    const card = screen.getByRole('link', { name: 'Write the brief' });
    expect(card).toHaveAttribute('href', `/user/task-details/${pending._id}`);
  });

  it('says where assigned tasks will appear', async () => {
    stub = stubApi(() => ({ status: 200, data: buildTaskCardList([]) }));
    renderPage(<MyTasksPage />, { path: '/user/tasks' });
    await advance(0);
    expect(screen.getByText('Tasks assigned to you will show up here.')).toBeInTheDocument();
  });

  it('toasts a failed list at once, without a delayed retry', async () => {
    stub = stubApi(() => ({ status: 500, data: {} }));
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderPage(<MyTasksPage />, { path: '/user/tasks' });
    await advance(10);
    expect(listRequests()).toHaveLength(1);
    expect(screen.getByText('Failed to fetch tasks. Please try again.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    await advance(5000);
    expect(listRequests()).toHaveLength(1);
  });
});

describe('Download Report (admin)', () => {
  const report = (request: RecordedRequest) => request.url === '/api/reports/export/tasks';

  it('saves the report as tasks_report.xlsx and confirms it', async () => {
    const saved = captureDownloads();
    stub = stubApi((request) =>
      report(request) ? { status: 200, data: new Blob(['xlsx']) } : listFor(request),
    );
    renderPage(<ManageTasksPage />, { path: '/admin/tasks' });
    await advance(0);
    fireEvent.click(screen.getByRole('button', { name: 'Download Report' }));
    await advance(10);
    expect(stub.requests.filter(report)).toEqual([
      expect.objectContaining({ method: 'GET', responseType: 'blob' }),
    ]);
    expect(saved).toEqual(['tasks_report.xlsx']);
    expect(screen.getByText('Task report downloaded successfully')).toBeInTheDocument();
  });

  it('says there is no report when there are no tasks, without asking for one', async () => {
    stub = stubApi(() => ({ status: 200, data: buildTaskCardList([]) }));
    renderPage(<ManageTasksPage />, { path: '/admin/tasks' });
    await advance(0);
    fireEvent.click(screen.getByRole('button', { name: 'Download Report' }));
    await advance(10);
    expect(stub.requests.filter(report)).toHaveLength(0);
    expect(screen.getByText('No task report found.')).toBeInTheDocument();
  });

  it('says so when the download fails', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    stub = stubApi((request) => (report(request) ? { status: 500, data: {} } : listFor(request)));
    renderPage(<ManageTasksPage />, { path: '/admin/tasks' });
    await advance(0);
    fireEvent.click(screen.getByRole('button', { name: 'Download Report' }));
    await advance(10);
    expect(
      screen.getByText('Failed to download task report. Please try again.'),
    ).toBeInTheDocument();
  });
});
