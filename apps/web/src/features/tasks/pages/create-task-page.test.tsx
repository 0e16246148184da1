import type { Task } from '@task-manager/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { paths } from '../../../config/paths';
import { queryKeys } from '../../../lib/query-keys';
import { buildPerson, buildTask } from '../../../test/factories';
import { renderPage, type PageOptions } from '../../../test/render-page';
import { stubApi, type Answer, type Respond } from '../../../test/stub-api';
import { CreateTaskPage } from './create-task-page';

const mia = buildPerson({ name: 'Mia Member' });

/** The server: the member list has Mia; everything else is up to `answer`. */
function serve(answer: Respond) {
  return stubApi((call) =>
    call.method === 'GET' && call.url === '/api/users'
      ? { status: 200, data: [mia] }
      : answer(call),
  );
}

function open(state?: unknown, options: Pick<PageOptions, 'holdNavigation'> = {}) {
  return renderPage(<CreateTaskPage />, { path: paths.admin.createTask, state, ...options });
}

/** The server of the delete tests: `task` to load, and `deleted` as DELETE's answer. */
function serveTaskToDelete(task: Task, deleted: Answer) {
  return serve((call) => {
    if (call.url !== `/api/tasks/${task._id}`) return undefined;
    if (call.method === 'GET') return { status: 200, data: task };
    if (call.method === 'DELETE') return deleted;
    return undefined;
  });
}

async function fillValidForm(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('Task Title'), 'Plan');
  await user.type(screen.getByLabelText('Description'), 'The plan');
  await user.type(screen.getByLabelText('Due Date'), '2031-05-20');
  await user.click(screen.getByRole('button', { name: 'Add Members' }));
  const dialog = screen.getByRole('dialog', { name: 'Select Users' });
  await user.click(await within(dialog).findByRole('checkbox', { name: 'Mia Member' }));
  await user.click(within(dialog).getByRole('button', { name: 'Done' }));
  await user.type(screen.getByRole('textbox', { name: 'TODO Checklist' }), 'Draft{Enter}');
}

describe('the Create Task page', { timeout: 30_000 }, () => {
  it('creates a task, toasts and resets the form to blanks', async () => {
    const user = userEvent.setup({ delay: null });
    const { requests } = serve((call) =>
      call.method === 'POST' && call.url === '/api/tasks'
        ? { status: 201, data: { message: 'Task created successfully', task: buildTask() } }
        : undefined,
    );
    open();
    expect(screen.getByRole('heading', { name: 'Create Task' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'CREATE TASK' }));

    expect(await screen.findByText('Task Created Successfully')).toBeInTheDocument();
    const post = requests.find((call) => call.method === 'POST');
    expect(post?.body).toMatchObject({ title: 'Plan', assignedTo: [mia._id] });
    await waitFor(() => expect(screen.getByLabelText('Task Title')).toHaveValue(''));
    expect(screen.getByLabelText('Description')).toHaveValue('');
    expect(screen.getByLabelText('Due Date')).toHaveValue('');
    expect(screen.getByLabelText('Priority')).toHaveValue('Low');
    const checklist = screen.getByRole('group', { name: 'TODO Checklist' });
    expect(within(checklist).queryAllByRole('listitem')).toHaveLength(0);
    // The new task stays one click away above the fresh form.
    const created = screen.getByRole('link', { name: 'Prepare the launch' });
    expect(created.getAttribute('href')).toMatch(/^\/admin\/tasks\/[\w-]+$/);
  });

  it('asks before creating a task due in the past, and keeps the form when the answer is no', async () => {
    const user = userEvent.setup({ delay: null });
    const { requests } = serve(() => undefined);
    open();
    await fillValidForm(user);
    const due = screen.getByLabelText('Due Date');
    await user.clear(due);
    await user.type(due, '2020-01-01');
    const asked: string[] = [];
    const confirm = vi.spyOn(window, 'confirm').mockImplementation((question) => {
      asked.push(String(question));
      return false;
    });
    try {
      await user.click(screen.getByRole('button', { name: 'CREATE TASK' }));
    } finally {
      confirm.mockRestore();
    }
    expect(asked).toEqual(['The due date is in the past. Create the task anyway?']);
    expect(requests.filter((call) => call.method === 'POST')).toEqual([]);
    expect(screen.getByLabelText('Task Title')).toHaveValue('Plan');
  });

  it("toasts the server's message when creating fails, and keeps the form", async () => {
    const user = userEvent.setup({ delay: null });
    serve((call) =>
      call.method === 'POST'
        ? { status: 400, data: { message: 'Assigned user not found' } }
        : undefined,
    );
    open();
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'CREATE TASK' }));
    expect(await screen.findByText('Assigned user not found')).toBeInTheDocument();
    expect(screen.getByLabelText('Task Title')).toHaveValue('Plan');
  });

  it("falls back to 'Failed to create task.' when the server gives no message", async () => {
    const user = userEvent.setup({ delay: null });
    serve((call) => (call.method === 'POST' ? { status: 400, data: {} } : undefined));
    open();
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'CREATE TASK' }));
    expect(await screen.findByText('Failed to create task.')).toBeInTheDocument();
  });
});

describe('the Update Task page', { timeout: 30_000 }, () => {
  it('loads the task, sends the update with ticked items kept, and toasts', async () => {
    const user = userEvent.setup({ delay: null });
    const task = buildTask({ assignedTo: [mia] });
    const { requests } = serve((call) => {
      if (call.url !== `/api/tasks/${task._id}`) return undefined;
      if (call.method === 'GET') return { status: 200, data: task };
      if (call.method === 'PUT') {
        const saved = { ...task, title: 'Renamed', updatedAt: '2031-02-02T00:00:00.000Z' };
        return { status: 200, data: { message: 'Task updated successfully', task: saved } };
      }
      return undefined;
    });
    open({ taskId: task._id });
    expect(await screen.findByRole('heading', { name: 'Update Task' })).toBeInTheDocument();
    const title = screen.getByLabelText('Task Title');
    expect(title).toHaveValue('Prepare the launch');
    await user.clear(title);
    await user.type(title, 'Renamed');
    await user.type(screen.getByRole('textbox', { name: 'TODO Checklist' }), 'Ship{Enter}');
    await user.click(screen.getByRole('button', { name: 'UPDATE TASK' }));

    expect(await screen.findByText('Task Updated Successfully')).toBeInTheDocument();
    const put = requests.find((call) => call.method === 'PUT');
    // Stored items go by id, so their ticks stay; the version it was loaded at goes as If-Match.
    expect(put?.body).toMatchObject({
      title: 'Renamed',
      todoChecklist: [
        { _id: task.todoChecklist[0]!._id, text: 'Write the draft' },
        { _id: task.todoChecklist[1]!._id, text: 'Review the draft' },
        { text: 'Ship', completed: false },
      ],
    });
    expect(put?.headers['if-match']).toBe(`"${task.updatedAt}"`);
    // It stays on the form, now showing the saved task.
    await waitFor(() => expect(screen.getByLabelText('Task Title')).toHaveValue('Renamed'));
  });

  it('on a conflict shows what differs; Keep mine saves over the new version, Take theirs shows it', async () => {
    const user = userEvent.setup({ delay: null });
    const task = buildTask({ assignedTo: [mia] });
    const theirs = {
      ...task,
      title: 'Their title',
      description: 'Their description',
      updatedAt: '2031-03-03T00:00:00.000Z',
    };
    let puts = 0;
    const { requests } = serve((call) => {
      if (call.url !== `/api/tasks/${task._id}`) return undefined;
      if (call.method === 'GET') return { status: 200, data: task };
      if (call.method !== 'PUT') return undefined;
      puts += 1;
      if (puts === 1 || puts === 3) {
        const data = { message: 'Changed by someone else', code: 'conflict', task: theirs };
        return { status: 409, data };
      }
      const saved = { ...theirs, title: 'My title', updatedAt: '2031-04-04T00:00:00.000Z' };
      return { status: 200, data: { message: 'Task updated successfully', task: saved } };
    });
    open({ taskId: task._id });
    const title = await screen.findByLabelText('Task Title');
    await user.clear(title);
    await user.type(title, 'My title');
    await user.click(screen.getByRole('button', { name: 'UPDATE TASK' }));

    expect(
      await screen.findByText('This task was changed by someone else while you were editing'),
    ).toBeInTheDocument();
    const titleChoice = screen.getByRole('group', { name: /Task Title/ });
    expect(titleChoice).toHaveTextContent('changed by you and by them');
    const mine = within(titleChoice).getByRole('radio', { name: 'Mine' });
    expect(mine).toBeChecked();
    expect(mine).toHaveAccessibleDescription('My title');
    expect(within(titleChoice).getByRole('radio', { name: 'Theirs' })).toHaveAccessibleDescription(
      'Their title',
    );
    // Only they changed the description: theirs is kept unless the person says otherwise.
    const descriptionChoice = screen.getByRole('group', { name: /Description/ });
    expect(within(descriptionChoice).getByRole('radio', { name: 'Theirs' })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Keep mine' }));

    expect((await screen.findAllByText('Task Updated Successfully')).length).toBeGreaterThan(0);
    const second = requests.filter((call) => call.method === 'PUT')[1];
    expect(second?.headers['if-match']).toBe(`"${theirs.updatedAt}"`);
    expect(second?.body).toMatchObject({ title: 'My title', description: 'Their description' });
    await waitFor(() => expect(screen.getByLabelText('Task Title')).toHaveValue('My title'));

    // Another conflict: this time the person takes the other version.
    await user.type(screen.getByLabelText('Task Title'), ' again');
    await user.click(screen.getByRole('button', { name: 'UPDATE TASK' }));
    await user.click(await screen.findByRole('button', { name: 'Take theirs' }));
    expect(screen.getByLabelText('Task Title')).toHaveValue('Their title');
    expect(screen.getByLabelText('Description')).toHaveValue('Their description');
    expect(screen.getByText(/This is the current version now\./)).toHaveAttribute('role', 'status');
    expect(requests.filter((call) => call.method === 'PUT')).toHaveLength(3);
  });

  it('saves without a label deleted while the form was open, and says so', async () => {
    const user = userEvent.setup({ delay: null });
    const kept = { _id: '00000000-0000-4000-8000-00000000000a', name: 'Kept', color: '#2563eb' };
    const gone = { _id: '00000000-0000-4000-8000-00000000000b', name: 'Gone', color: '#dc2626' };
    const task = buildTask({ assignedTo: [mia], labels: [kept, gone] });
    let labels = [kept, gone];
    const { requests } = serve((call) => {
      if (call.method === 'GET' && call.url === '/api/labels') return { status: 200, data: labels };
      if (call.url !== `/api/tasks/${task._id}`) return undefined;
      if (call.method === 'GET') return { status: 200, data: task };
      if (call.method === 'PUT') {
        const sent = (call.body as { labels: string[] }).labels;
        if (sent.includes(gone._id)) {
          return {
            status: 400,
            data: {
              message: 'labels: Label not found',
              errors: [{ path: 'labels', message: 'Label not found' }],
            },
          };
        }
        const saved = {
          ...task,
          title: 'Renamed',
          labels: [kept],
          updatedAt: '2031-02-02T00:00:00.000Z',
        };
        return { status: 200, data: { message: 'Task updated successfully', task: saved } };
      }
      return undefined;
    });
    open({ taskId: task._id });
    const title = await screen.findByLabelText('Task Title');
    // Someone deletes "Gone" meanwhile.
    labels = [kept];
    await user.clear(title);
    await user.type(title, 'Renamed');
    await user.click(screen.getByRole('button', { name: 'UPDATE TASK' }));

    expect(await screen.findByText('Task Updated Successfully')).toBeInTheDocument();
    expect(
      screen.getByText(
        'A label of this task was deleted meanwhile: the task was saved without it.',
      ),
    ).toBeInTheDocument();
    const puts = requests.filter((call) => call.method === 'PUT');
    expect(puts.at(-1)?.body).toMatchObject({ title: 'Renamed', labels: [kept._id] });
    expect(screen.queryByText('labels: Label not found')).not.toBeInTheDocument();
  });

  it("toasts the server's message when the update fails", async () => {
    const user = userEvent.setup({ delay: null });
    const task = buildTask({ assignedTo: [mia] });
    serve((call) => {
      if (call.method === 'GET' && call.url === `/api/tasks/${task._id}`)
        return { status: 200, data: task };
      if (call.method === 'PUT') return { status: 400, data: { message: 'Nothing to update.' } };
      return undefined;
    });
    open({ taskId: task._id });
    await user.click(await screen.findByRole('button', { name: 'UPDATE TASK' }));
    expect(await screen.findByText('Nothing to update.')).toBeInTheDocument();
  });

  it('when saving finds the task deleted, keeps the edit and saves it as a new task', async () => {
    const user = userEvent.setup({ delay: null });
    const task = buildTask({ assignedTo: [mia] });
    const ticked = { ...task.todoChecklist[0]!, completed: true };
    const loaded = { ...task, todoChecklist: [ticked, task.todoChecklist[1]!] };
    const recreated = buildTask({ title: 'Renamed' });
    const { requests } = serve((call) => {
      if (call.method === 'GET' && call.url === `/api/tasks/${task._id}`)
        return { status: 200, data: loaded };
      if (call.method === 'PUT') return { status: 404, data: { message: 'Task not found' } };
      if (call.method === 'POST' && call.url === '/api/tasks')
        return { status: 201, data: { message: 'Task created successfully', task: recreated } };
      return undefined;
    });
    open({ taskId: task._id });
    const title = await screen.findByLabelText('Task Title');
    await user.clear(title);
    await user.type(title, 'Renamed');
    await user.click(screen.getByRole('button', { name: 'UPDATE TASK' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This task was deleted by someone else.',
    );
    expect(screen.getByLabelText('Task Title')).toHaveValue('Renamed');
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    expect(requests.some((call) => call.method === 'POST')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'SAVE AS NEW TASK' }));

    const link = await screen.findByRole('link', { name: 'Renamed' });
    expect(link).toHaveAttribute('href', `/admin/tasks/${recreated._id}`);
    const post = requests.find((call) => call.method === 'POST');
    // A new task: no stored item ids, and the ticks the deleted one had.
    expect(post?.body).toMatchObject({
      title: 'Renamed',
      assignedTo: [mia._id],
      todoChecklist: [
        { text: 'Write the draft', completed: true },
        { text: 'Review the draft', completed: false },
      ],
    });
    expect(JSON.stringify(post?.body)).not.toContain(ticked._id);
    expect(screen.queryByLabelText('Task Title')).not.toBeInTheDocument();
  });

  it('deletes after the confirmation, toasts and goes to Manage Tasks', async () => {
    const user = userEvent.setup({ delay: null });
    const task = buildTask({ assignedTo: [mia] });
    const { requests } = serveTaskToDelete(task, {
      status: 200,
      data: { message: 'Task deleted successfully' },
    });
    open({ taskId: task._id });
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Task' });
    expect(within(dialog).getByText('Are you sure want to delete this task?')).toBeInTheDocument();
    expect(requests.some((call) => call.method === 'DELETE')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByRole('status', { name: 'Location' })).toHaveTextContent(
      '/admin/tasks',
    );
    expect(screen.getByText('Task deleted successfully')).toBeInTheDocument();
    expect(requests.filter((call) => call.method === 'DELETE')).toHaveLength(1);
  });

  it('asks no more for the task it deleted while Manage Tasks is still loading', async () => {
    const user = userEvent.setup({ delay: null });
    const task = buildTask({ assignedTo: [mia] });
    const { requests } = serveTaskToDelete(task, {
      status: 200,
      data: { message: 'Task deleted successfully' },
    });
    let chunkLoaded = () => {};
    const holdNavigation = new Promise<void>((resolve) => (chunkLoaded = resolve));
    const { queryClient } = open({ taskId: task._id }, { holdNavigation });
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Task' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Task deleted successfully')).toBeInTheDocument();
    // Manage Tasks is still loading: the form is on screen when the deletion's live event comes
    // (what the event does: its task's query is stale). A refetch now would be a 404.
    expect(screen.getByRole('heading', { name: 'Update Task' })).toBeInTheDocument();
    await queryClient.invalidateQueries({ queryKey: queryKeys.tasks.detail(task._id) });
    const reads = requests.filter(
      (call) => call.method === 'GET' && call.url === `/api/tasks/${task._id}`,
    );
    expect(reads).toHaveLength(1);

    chunkLoaded();
    expect(await screen.findByRole('status', { name: 'Location' })).toHaveTextContent(
      '/admin/tasks',
    );
  });

  it("toasts the server's message when the delete fails and stays", async () => {
    const user = userEvent.setup({ delay: null });
    const task = buildTask({ assignedTo: [mia] });
    serveTaskToDelete(task, { status: 404, data: { message: 'Task not found' } });
    open({ taskId: task._id });
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Task' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Task not found')).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Location' })).not.toBeInTheDocument();
  });

  it('shows an error with a link back to Manage Tasks when the task does not exist', async () => {
    serve(() => ({ status: 404, data: { message: 'Task not found' } }));
    open({ taskId: buildTask()._id });
    expect(await screen.findByRole('alert')).toHaveTextContent('Task not found');
    expect(screen.getByRole('link', { name: 'Back to Manage Tasks' })).toHaveAttribute(
      'href',
      '/admin/tasks',
    );
  });
});
