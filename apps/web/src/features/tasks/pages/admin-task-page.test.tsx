import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { paths } from '../../../config/paths';
import { buildTask, buildUser } from '../../../test/factories';
import { renderPage } from '../../../test/render-page';
import { stubApi } from '../../../test/stub-api';
import { AdminTaskPage, EditTaskPage } from './admin-task-page';

const admin = buildUser({ role: 'admin' });
const label = { _id: '00000000-0000-4000-8000-00000000cccc', name: 'Urgent', color: '#b91c1c' };
const task = buildTask({
  title: 'Late launch',
  status: 'In Progress',
  dueDate: '2020-05-01T00:00:00.000Z',
  labels: [label],
});

function serve() {
  return stubApi((request) => {
    if (request.url === '/api/labels') return { status: 200, data: [label] };
    if (request.url === '/api/users') return { status: 200, data: [] };
    return { status: 200, data: task };
  });
}

describe('the admin task page', () => {
  it('reads the task, marks it overdue, shows its labels, and links to Edit', async () => {
    serve();
    renderPage(<AdminTaskPage />, {
      path: paths.admin.taskPage.to(task._id),
      route: paths.admin.taskPage.pattern,
      signedInAs: admin,
    });
    expect(await screen.findByRole('heading', { name: 'Late launch' })).toBeInTheDocument();
    expect(screen.getByText('Overdue')).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Labels' })).toHaveTextContent('Urgent');
    fireEvent.click(screen.getByRole('link', { name: 'Edit' }));
    expect(screen.getByRole('status', { name: 'Location' })).toHaveTextContent(
      `/admin/tasks/${task._id}/edit`,
    );
  });

  it('opens the edit form by link, with the task and its labels chosen', async () => {
    serve();
    renderPage(<EditTaskPage />, {
      path: paths.admin.editTask.to(task._id),
      route: paths.admin.editTask.pattern,
      signedInAs: admin,
    });
    expect(await screen.findByRole('heading', { name: 'Update Task' })).toBeInTheDocument();
    expect(screen.getByLabelText('Task Title')).toHaveValue('Late launch');
    expect(await screen.findByRole('checkbox', { name: 'Urgent' })).toBeChecked();
  });
});
