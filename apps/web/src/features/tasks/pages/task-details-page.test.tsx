import type { Task } from '@task-manager/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { queryKeys } from '../../../lib/query-keys';
import { buildPerson, buildTask, fakeServer, renderPage, type Call } from '../task-form-test-utils';
import { TaskDetailsPage } from './task-details-page';

let server: ReturnType<typeof fakeServer> | undefined;
afterEach(() => server?.restore());

function open(task: Task) {
  return renderPage(<TaskDetailsPage />, {
    route: '/user/task-details/:id',
    path: `/user/task-details/${task._id}`,
  });
}

const gets = (calls: Call[], task: Task) =>
  calls.filter((call) => call.method === 'GET' && call.url === `/api/tasks/${task._id}`).length;

describe('the task details page', { timeout: 30_000 }, () => {
  it("says 'Loading task...' and then shows the task", async () => {
    const task = buildTask({
      dueDate: '2031-06-15T12:00:00.000Z',
      assignedTo: [1, 2, 3, 4, 5, 6].map((n) => buildPerson({ name: `Person ${n}` })),
      attachments: ['example.com/plan'],
    });
    server = fakeServer(() => ({ status: 200, data: task }));
    open(task);
    expect(screen.getByRole('status')).toHaveTextContent('Loading task...');
    expect(await screen.findByRole('heading', { name: 'Prepare the launch' })).toBeInTheDocument();
    expect(screen.getByText('In Progress')).toBeInTheDocument();
    expect(screen.getByText('Everything the launch needs.')).toBeInTheDocument();
    expect(screen.getByText('15th Jun 2031')).toBeInTheDocument();
    expect(screen.getByText('+1')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Write the draft' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Review the draft' })).not.toBeChecked();
    expect(screen.getByRole('link', { name: /example\.com\/plan/ })).toHaveAttribute(
      'href',
      'https://example.com/plan',
    );
  });

  it("shows 'N/A' when there is no due date", async () => {
    const task = buildTask({ dueDate: '' });
    server = fakeServer(() => ({ status: 200, data: task }));
    open(task);
    const due = (await screen.findByRole('heading', { name: 'Due Date' })).parentElement!;
    expect(within(due).getByText('N/A')).toBeInTheDocument();
  });

  it("shows 'Failed to load task details.' when the task cannot be loaded", async () => {
    const task = buildTask();
    server = fakeServer(() => ({ status: 404, data: { message: 'Task not found' } }));
    open(task);
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load task details.');
  });

  it('ticks at once, sends only that item, toasts, then fetches the task again', async () => {
    const user = userEvent.setup({ delay: null });
    const task = buildTask();
    const review = task.todoChecklist[1]!;
    let resolvePatch: () => void = () => {};
    const patched = new Promise<void>((resolve) => (resolvePatch = resolve));
    server = fakeServer((call) => {
      if (call.method === 'GET') return { status: 200, data: task };
      if (call.method === 'PATCH') {
        resolvePatch();
        return { status: 200, data: { message: 'Task checklist updated', task } };
      }
      return undefined;
    });
    const { queryClient } = open(task);
    const box = await screen.findByRole('checkbox', { name: 'Review the draft' });
    await user.click(box);
    expect(box).toBeChecked();
    expect(
      queryClient.getQueryData<Task>(queryKeys.tasks.detail(task._id))!.todoChecklist[1],
    ).toEqual({
      ...review,
      completed: true,
    });
    await patched;
    expect(server.calls.find((call) => call.method === 'PATCH')).toEqual({
      method: 'PATCH',
      url: `/api/tasks/${task._id}/todo/${review._id}`,
      body: { completed: true },
    });
    expect(await screen.findByText('Checklist updated successfully')).toBeInTheDocument();
    await waitFor(() => expect(gets(server!.calls, task)).toBe(2));
  });

  it('toasts the failure, puts the box back and fetches the task again', async () => {
    const user = userEvent.setup({ delay: null });
    const task = buildTask();
    server = fakeServer((call) => {
      if (call.method === 'GET') return { status: 200, data: task };
      if (call.method === 'PATCH') return { status: 400, data: { message: 'Nope' } };
      return undefined;
    });
    open(task);
    const box = await screen.findByRole('checkbox', { name: 'Write the draft' });
    await user.click(box);
    expect(await screen.findByText('Failed to update checklist.')).toBeInTheDocument();
    expect(box).toBeChecked();
    await waitFor(() => expect(gets(server!.calls, task)).toBe(2));
  });
});
