import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../../lib/api-client';
import { adminDashboardQueryOptions } from '../api/get-admin-dashboard';
import { userDashboardQueryOptions } from '../api/get-user-dashboard';
import { DASHBOARD_LOAD_FAILED } from '../components/dashboard-view';
import { buildDashboard, buildTask } from '../test/factories';
import { AdminDashboardPage } from './admin-dashboard-page';
import { UserDashboardPage } from './user-dashboard-page';

vi.mock('../../../lib/session', () => ({
  useSession: () => ({ user: { name: 'Alice' }, loading: false }),
}));

afterEach(() => vi.restoreAllMocks());

function renderAt(path: string, page: ReactNode) {
  const queryClient = new QueryClient();
  return render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={path} element={page} />
          <Route path="/admin/tasks" element={<h1>Manage Tasks</h1>} />
          <Route path="/user/tasks" element={<h1>My Tasks</h1>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

function answer(data: unknown) {
  return { data, status: 200, statusText: 'OK', headers: {}, config: {} } as never;
}

describe('dashboard queries', () => {
  it('retry the admin dashboard once after 1.5 s and the member dashboard once at once', () => {
    const admin = adminDashboardQueryOptions();
    const member = userDashboardQueryOptions();
    expect([admin.retry, admin.retryDelay]).toEqual([1, 1500]);
    expect([member.retry, member.retryDelay]).toEqual([1, 0]);
  });
});

describe('AdminDashboardPage', () => {
  it('shows skeletons, then the greeting, counts and recent tasks from the admin call', async () => {
    const get = vi
      .spyOn(api, 'get')
      .mockResolvedValue(
        answer(
          buildDashboard({ pending: 2, inProgress: 1, completed: 4 }, [
            buildTask({ title: 'Ship it' }),
          ]),
        ),
      );
    renderAt('/admin/dashboard', <AdminDashboardPage />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(/! Alice$/);
    expect(screen.getByRole('status', { name: 'Loading dashboard' })).toBeInTheDocument();

    expect(await screen.findByRole('cell', { name: 'Ship it' })).toBeInTheDocument();
    expect(get).toHaveBeenCalledWith('/api/tasks/dashboard-data');
    expect(screen.getByText('Total Tasks').parentElement).toHaveTextContent('7');
    expect(screen.getByRole('figure', { name: 'Task Distribution' })).toHaveAccessibleDescription(
      'Tasks by priority: Low: 7, Medium: 0, High: 0',
    );
    expect(screen.getByRole('figure', { name: 'Task Status' })).toHaveAccessibleDescription(
      'Pending: 2, In Progress: 1, Completed: 4 (7 tasks)',
    );
    expect(screen.queryByRole('status', { name: 'Loading dashboard' })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'See All' }));
    expect(screen.getByRole('heading', { name: 'Manage Tasks' })).toBeInTheDocument();
  });
});

describe('UserDashboardPage', () => {
  it("uses the member's call and says 'No tasks yet' when there are none", async () => {
    const get = vi.spyOn(api, 'get').mockResolvedValue(answer(buildDashboard()));
    renderAt('/user/dashboard', <UserDashboardPage />);
    expect(await screen.findByText('No tasks yet')).toBeInTheDocument();
    expect(get).toHaveBeenCalledWith('/api/tasks/user-dashboard-data');

    await userEvent.click(screen.getByRole('button', { name: 'See All' }));
    expect(screen.getByRole('heading', { name: 'My Tasks' })).toBeInTheDocument();
  });

  it('retries once, then offers Retry instead of reloading the page', async () => {
    const get = vi.spyOn(api, 'get').mockRejectedValue(new Error('network down'));
    renderAt('/user/dashboard', <UserDashboardPage />);

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(DASHBOARD_LOAD_FAILED);
    expect(get).toHaveBeenCalledTimes(2);

    get.mockResolvedValue(answer(buildDashboard({ completed: 1 }, [buildTask()])));
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    expect(await screen.findByRole('table')).toBeInTheDocument();
    expect(get).toHaveBeenCalledTimes(3);
  });
});
