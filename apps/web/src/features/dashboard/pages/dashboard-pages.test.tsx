import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { paths } from '../../../config/paths';
import { setLanguage } from '../../../lib/i18n';
import { buildDashboard, buildTask, buildUser } from '../../../test/factories';
import { renderPage } from '../../../test/render-page';
import { stubApi, type RecordedRequest } from '../../../test/stub-api';
import { adminDashboardQueryOptions } from '../api/get-admin-dashboard';
import { userDashboardQueryOptions } from '../api/get-user-dashboard';
import { AdminDashboardPage } from './admin-dashboard-page';
import { UserDashboardPage } from './user-dashboard-page';

function open(page: ReactElement, path: string, role: 'admin' | 'member') {
  return renderPage(page, { path, signedInAs: buildUser({ name: 'Alice', role }) });
}

const location = () => screen.getByRole('status', { name: 'Location' });
const dashboardCalls = (requests: RecordedRequest[]) =>
  requests.filter((request) => request.url.startsWith('/api/tasks/')).map((request) => request.url);

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
    const { requests } = stubApi((request) =>
      request.url === '/api/activity'
        ? { status: 200, data: [] }
        : {
            status: 200,
            data: buildDashboard({ pending: 2, inProgress: 1, completed: 4 }, [
              buildTask({ title: 'Ship it' }),
            ]),
          },
    );
    open(<AdminDashboardPage />, paths.admin.dashboard, 'admin');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(/! Alice$/);
    expect(screen.getByRole('status', { name: 'Loading dashboard' })).toBeInTheDocument();

    expect(await screen.findByRole('cell', { name: 'Ship it' })).toBeInTheDocument();
    expect(dashboardCalls(requests)).toEqual(['/api/tasks/dashboard-data']);
    expect(screen.getByText('Total Tasks').parentElement).toHaveTextContent('7');
    expect(screen.getByRole('figure', { name: 'Task Distribution' })).toHaveAccessibleDescription(
      'Tasks by priority: Low: 7, Medium: 0, High: 0',
    );
    expect(screen.getByRole('figure', { name: 'Task Status' })).toHaveAccessibleDescription(
      'Pending: 2, In Progress: 1, Completed: 4 (7 tasks)',
    );
    expect(screen.queryByRole('status', { name: 'Loading dashboard' })).not.toBeInTheDocument();
    // The team's recent activity sits under the figures (none yet).
    const activity = await screen.findByRole('region', { name: 'Recent activity' });
    expect(activity).toHaveTextContent('Nothing here yet.');

    await userEvent.click(screen.getByRole('button', { name: 'See All' }));
    expect(location()).toHaveTextContent('/admin/tasks');
  });

  it("lists the team's latest changes, each linking to its task", async () => {
    stubApi((request) =>
      request.url === '/api/activity'
        ? {
            status: 200,
            data: [
              {
                _id: 'a1',
                type: 'checklist.ticked',
                actor: { _id: 'u1', name: 'Mia Member', profileImageUrl: null },
                at: '2031-01-01T10:00:00.000Z',
                data: { itemId: 'i1', text: 'Draft' },
                taskId: 't1',
                task: { _id: 't1', title: 'Ship it' },
              },
            ],
          }
        : { status: 200, data: buildDashboard() },
    );
    open(<AdminDashboardPage />, paths.admin.dashboard, 'admin');
    const activity = await screen.findByRole('region', { name: 'Recent activity' });
    expect(await within(activity).findByText(/ticked “Draft”/)).toBeInTheDocument();
    expect(within(activity).getByRole('link', { name: 'Ship it' })).toHaveAttribute(
      'href',
      '/admin/tasks/t1',
    );
  });
});

describe('AdminDashboardPage in German', () => {
  afterEach(() => setLanguage('en'));

  it('shows the greeting, cards, charts and recent tasks in German', async () => {
    await setLanguage('de');
    stubApi((request) =>
      request.url === '/api/activity'
        ? { status: 200, data: [] }
        : {
            status: 200,
            data: buildDashboard({ pending: 2, inProgress: 1, completed: 1234 }, [
              buildTask({ title: 'Ship it' }),
            ]),
          },
    );
    open(<AdminDashboardPage />, paths.admin.dashboard, 'admin');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(
      /^(Guten Morgen|Guten Tag|Guten Abend|Gute Nacht)! Alice$/,
    );
    expect(screen.getByRole('status', { name: 'Dashboard wird geladen' })).toBeInTheDocument();

    expect(await screen.findByRole('cell', { name: 'Ship it' })).toBeInTheDocument();
    expect(screen.getByText('Aufgaben gesamt').parentElement).toHaveTextContent('1.237');
    expect(screen.getByText('Erledigte Aufgaben').parentElement).toHaveTextContent('1.234');
    expect(screen.getByText('Überfällige Aufgaben')).toBeInTheDocument();
    expect(screen.getByRole('figure', { name: 'Aufgabenverteilung' })).toHaveAccessibleDescription(
      'Aufgaben nach Priorität: Niedrig: 1237, Mittel: 0, Hoch: 0',
    );
    expect(screen.getByRole('figure', { name: 'Aufgabenstatus' })).toHaveAccessibleDescription(
      'Offen: 2, In Arbeit: 1, Erledigt: 1234 (1237 Aufgaben)',
    );
    const table = screen.getByRole('region', { name: 'Tabelle der neuesten Aufgaben' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Name', 'Status', 'Priorität', 'Erstellt am']);
    expect(screen.getByRole('heading', { name: 'Neueste Aufgaben' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Alle anzeigen' }));
    expect(location()).toHaveTextContent('/admin/tasks');
  });
});

describe('UserDashboardPage', () => {
  it("uses the member's call and says 'No tasks yet' when there are none", async () => {
    const { requests } = stubApi(() => ({ status: 200, data: buildDashboard() }));
    open(<UserDashboardPage />, paths.user.dashboard, 'member');
    expect(await screen.findByText('No tasks yet')).toBeInTheDocument();
    expect(dashboardCalls(requests)).toEqual(['/api/tasks/user-dashboard-data']);

    await userEvent.click(screen.getByRole('button', { name: 'See All' }));
    expect(location()).toHaveTextContent('/user/tasks');
  });

  it('retries once, then offers Retry instead of reloading the page', async () => {
    let online = false;
    const { requests } = stubApi(() => {
      if (!online) throw new TypeError('Failed to fetch');
      return { status: 200, data: buildDashboard({ completed: 1 }, [buildTask()]) };
    });
    open(<UserDashboardPage />, paths.user.dashboard, 'member');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load the dashboard. Please try again.');
    expect(dashboardCalls(requests)).toHaveLength(2);

    online = true;
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    expect(await screen.findByRole('table')).toBeInTheDocument();
    expect(dashboardCalls(requests)).toHaveLength(3);
  });
});
