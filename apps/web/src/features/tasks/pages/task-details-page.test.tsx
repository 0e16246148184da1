import type { Task } from '@task-manager/shared';
import type { QueryClient } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { paths } from '../../../config/paths';
import { staleKeysFor } from '../../../lib/live-updates';
import { queryKeys } from '../../../lib/query-keys';
import { buildPerson, buildTask, buildUser } from '../../../test/factories';
import { renderPage } from '../../../test/render-page';
import { stubApi, type RecordedRequest } from '../../../test/stub-api';
import { taskAnswer } from '../../../test/task-page-answers';
import { AdminTaskPage } from './admin-task-page';
import { TaskDetailsPage } from './task-details-page';

function open(task: Task) {
  return renderPage(<TaskDetailsPage />, {
    route: paths.user.taskDetails.pattern,
    path: paths.user.taskDetails.to(task._id),
  });
}

const gets = (requests: RecordedRequest[], task: Task) =>
  requests.filter((call) => call.method === 'GET' && call.url === `/api/tasks/${task._id}`).length;

describe('the task details page', { timeout: 30_000 }, () => {
  it("says 'Loading task...' and then shows the task", async () => {
    const task = buildTask({
      dueDate: '2031-06-15T12:00:00.000Z',
      assignedTo: [1, 2, 3, 4, 5, 6].map((n) => buildPerson({ name: `Person ${n}` })),
      attachments: ['example.com/plan'],
    });
    stubApi((call) => taskAnswer(call, task));
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
    stubApi((call) => taskAnswer(call, task));
    open(task);
    const due = (await screen.findByRole('heading', { name: 'Due Date' })).parentElement!;
    expect(within(due).getByText('N/A')).toBeInTheDocument();
  });

  it("shows 'Failed to load task details.' with Retry when the task cannot be loaded", async () => {
    const task = buildTask();
    stubApi(() => ({ status: 500, data: { message: 'Internal Server Error' } }));
    open(task);
    // A server error is tried again once before it is shown.
    const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(alert).toHaveTextContent('Failed to load task details.');
    expect(within(alert).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it("says 'Task not found' for a missing task, with a way back and no Retry", async () => {
    const task = buildTask();
    stubApi(() => ({ status: 404, data: { message: 'Task not found' } }));
    open(task);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Task not found' })).toBeInTheDocument();
    expect(within(alert).getByRole('link', { name: 'Back to My Tasks' })).toHaveAttribute(
      'href',
      '/user/tasks',
    );
    expect(within(alert).queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('ticks at once, sends only that item, toasts, then fetches the task again', async () => {
    const user = userEvent.setup({ delay: null });
    const task = buildTask();
    const review = task.todoChecklist[1]!;
    let resolvePatch: () => void = () => {};
    const patched = new Promise<void>((resolve) => (resolvePatch = resolve));
    const server = stubApi((call) => {
      if (call.method === 'GET') return taskAnswer(call, task);
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
    expect(server.requests.find((call) => call.method === 'PATCH')).toMatchObject({
      method: 'PATCH',
      url: `/api/tasks/${task._id}/todo/${review._id}`,
      body: { completed: true },
    });
    expect(await screen.findByText('Checklist updated successfully')).toBeInTheDocument();
    await waitFor(() => expect(gets(server.requests, task)).toBe(2));
  });

  it('toasts the failure, puts the box back and fetches the task again', async () => {
    const user = userEvent.setup({ delay: null });
    const task = buildTask();
    const server = stubApi((call) => {
      if (call.method === 'GET') return taskAnswer(call, task);
      if (call.method === 'PATCH') return { status: 400, data: { message: 'Nope' } };
      return undefined;
    });
    open(task);
    const box = await screen.findByRole('checkbox', { name: 'Write the draft' });
    await user.click(box);
    expect(await screen.findByText('Failed to update checklist.')).toBeInTheDocument();
    expect(box).toBeChecked();
    await waitFor(() => expect(gets(server.requests, task)).toBe(2));
  });

  describe('when the open task is deleted', () => {
    /** The API: the task until `deleted` is set, then a 404 for it as for the deleted task. */
    function serveUntilDeleted(task: Task) {
      const state = { deleted: false };
      const server = stubApi((call) => {
        if (state.deleted && call.url.startsWith(`/api/tasks/${task._id}`)) {
          return { status: 404, data: { message: 'Task not found' } };
        }
        if (call.method === 'GET') return taskAnswer(call, task);
        return undefined;
      });
      return { state, server };
    }

    /** What the live stream's `task.deleted` event makes the app refetch. */
    function hearDeleted(queryClient: QueryClient, task: Task) {
      act(() => {
        const event = { type: 'task.deleted' as const, taskId: task._id, at: '', data: {} };
        for (const queryKey of staleKeysFor(event))
          void queryClient.invalidateQueries({ queryKey });
      });
    }

    it("says 'Task not found' at once, with the way back and the comment that was typed", async () => {
      const user = userEvent.setup({ delay: null });
      const task = buildTask();
      const { state } = serveUntilDeleted(task);
      const { queryClient } = open(task);
      await screen.findByRole('heading', { name: 'Prepare the launch' });
      await user.type(screen.getByRole('combobox', { name: 'Add a comment' }), 'Half a thought');

      state.deleted = true;
      hearDeleted(queryClient, task);

      const alert = await screen.findByRole('alert');
      expect(within(alert).getByRole('heading', { name: 'Task not found' })).toBeInTheDocument();
      expect(within(alert).getByRole('link', { name: 'Back to My Tasks' })).toHaveAttribute(
        'href',
        '/user/tasks',
      );
      expect(within(alert).getByRole('textbox', { name: 'Your comment, not sent' })).toHaveValue(
        'Half a thought',
      );
      expect(screen.queryByRole('heading', { name: 'Prepare the launch' })).toBeNull();
      expect(screen.queryByRole('checkbox')).toBeNull();
    });

    it('shows the 404 of the refetch after a failed tick instead of the stale task', async () => {
      const user = userEvent.setup({ delay: null });
      const task = buildTask();
      const { state } = serveUntilDeleted(task);
      open(task);
      const box = await screen.findByRole('checkbox', { name: 'Review the draft' });
      state.deleted = true;
      await user.click(box);
      expect(await screen.findByText('Failed to update checklist.')).toBeInTheDocument();
      expect(await screen.findByRole('heading', { name: 'Task not found' })).toBeInTheDocument();
      expect(screen.queryByRole('checkbox', { name: 'Review the draft' })).toBeNull();
    });

    it("does the same on the admin's task page, leading back to Manage Tasks", async () => {
      const task = buildTask();
      const { state } = serveUntilDeleted(task);
      const { queryClient } = renderPage(<AdminTaskPage />, {
        path: paths.admin.taskPage.to(task._id),
        route: paths.admin.taskPage.pattern,
        signedInAs: buildUser({ role: 'admin' }),
      });
      await screen.findByRole('heading', { name: 'Prepare the launch' });

      state.deleted = true;
      hearDeleted(queryClient, task);

      const alert = await screen.findByRole('alert');
      expect(within(alert).getByRole('heading', { name: 'Task not found' })).toBeInTheDocument();
      expect(within(alert).getByRole('link', { name: 'Back to Manage Tasks' })).toHaveAttribute(
        'href',
        '/admin/tasks',
      );
      expect(within(alert).queryByRole('textbox')).toBeNull();
    });
  });
});
