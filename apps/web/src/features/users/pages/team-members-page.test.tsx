import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { paths } from '../../../config/paths';
import { setLanguage } from '../../../lib/i18n';
import { captureDownloads } from '../../../test/downloads';
import { buildTeamMember, userPageFor } from '../../../test/factories';
import { renderPage } from '../../../test/render-page';
import { stubApi, type Respond } from '../../../test/stub-api';
import { fakeWindowLayout } from '../../../test/window-layout';
import { TeamMembersPage } from './team-members-page';

const mia = buildTeamMember({
  name: 'Mia Member',
  email: 'mia@example.com',
  pendingTasks: 2,
  inProgressTasks: 1234,
  completedTasks: 0,
});

const REPORT_URL = '/api/reports/export/users';

/** The server: the member list from `listUsers`, the report from `report` (404 if left out). */
function serve(listUsers: Respond, report?: Respond) {
  return stubApi((request) => {
    if (request.url === '/api/users') return listUsers(request);
    if (request.url === REPORT_URL && report) return report(request);
    throw new Error(`unexpected ${request.method} ${request.url}`);
  });
}

function open() {
  renderPage(<TeamMembersPage />, { path: paths.admin.users });
}

describe('the Team Members page', { timeout: 30_000 }, () => {
  it('shows a card per user with avatar, name, email and the task counts', async () => {
    serve(() => ({ status: 200, data: [mia] }));
    open();
    expect(screen.getByRole('heading', { name: 'Team Members' })).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Loading team members' })).toBeInTheDocument();
    const card = (await screen.findByText('Mia Member')).closest<HTMLElement>('[role="listitem"]')!;
    expect(within(card).getByRole('img', { name: 'Mia Member' })).toBeInTheDocument();
    expect(within(card).getByText('mia@example.com')).toBeInTheDocument();
    const count = (label: string) => within(card).getByText(label).nextElementSibling;
    expect(count('Pending')).toHaveTextContent('2');
    expect(count('In Progress')).toHaveTextContent('1,234');
    expect(count('Completed')).toHaveTextContent('0');
  });

  it("says 'No team members yet' when there are none", async () => {
    serve(() => ({ status: 200, data: [] }));
    open();
    expect(await screen.findByText('No team members yet')).toBeInTheDocument();
  });

  it('downloads the report as user_details.xlsx and says so', async () => {
    const saved = captureDownloads();
    const { requests } = serve(
      () => ({ status: 200, data: [] }),
      () => ({ status: 200, data: new Blob(['xlsx']) }),
    );
    open();
    await userEvent
      .setup({ delay: null })
      .click(screen.getByRole('button', { name: 'Download Report' }));
    await waitFor(() => expect(saved).toEqual(['user_details.xlsx']));
    expect(requests.filter((request) => request.url === REPORT_URL)).toEqual([
      expect.objectContaining({ method: 'GET', responseType: 'blob' }),
    ]);
    expect(await screen.findByText('Team report downloaded successfully')).toBeInTheDocument();
  });

  it('says when the report cannot be downloaded', async () => {
    serve(
      () => ({ status: 200, data: [] }),
      () => {
        throw new TypeError('Failed to fetch');
      },
    );
    open();
    await userEvent
      .setup({ delay: null })
      .click(screen.getByRole('button', { name: 'Download Report' }));
    expect(
      await screen.findByText('Failed to download user details. Please try again.'),
    ).toBeInTheDocument();
  });

  it('loads the next page with the X-Next-Cursor as the end nears, rendering only rows near the screen', async () => {
    const team = Array.from({ length: 120 }, (_, index) =>
      buildTeamMember({
        name: `Member ${String(index + 1).padStart(3, '0')}`,
        email: `member${index + 1}@example.com`,
      }),
    );
    const stub = serve((request) => userPageFor(team, request.params));
    // The grid's row estimate, so no row is re-measured; rows are 170 + 16 px apart.
    const layout = fakeWindowLayout({ rowHeight: 170 });
    const rowTop = (row: number) => row * 186;
    const cursors = () => stub.requests.map((request) => request.params?.cursor);
    try {
      open();
      expect(await screen.findByText('Member 001')).toBeInTheDocument();
      expect(stub.requests[0]!.params).toEqual({ limit: 50 });
      const list = screen.getByRole('list', { name: 'Team members' });
      const cards = () => within(list).getAllByRole('listitem');
      expect(cards().length).toBeLessThan(15);
      // More pages to come: the list's size is not known yet.
      expect(cards()[0]).toHaveAttribute('aria-setsize', '-1');
      expect(cards()[0]).toHaveAttribute('aria-posinset', '1');

      layout.scrollWindowTo(rowTop(20));
      expect(await screen.findByText('Member 021')).toBeInTheDocument();
      expect(cursors()).toEqual([undefined]);

      layout.scrollWindowTo(rowTop(47));
      await waitFor(() => expect(cursors()).toEqual([undefined, '50']));
      expect(await screen.findByText('Member 051')).toBeInTheDocument();
      layout.scrollWindowTo(rowTop(97));
      await waitFor(() => expect(cursors()).toEqual([undefined, '50', '100']));
      layout.scrollWindowTo(rowTop(119));
      expect(await screen.findByText('Member 120')).toBeInTheDocument();
      expect(cursors()).toEqual([undefined, '50', '100']);
      const shown = cards();
      expect(shown.at(-1)).toHaveAttribute('aria-posinset', '120');
      expect(shown.at(-1)).toHaveAttribute('aria-setsize', '120');
      const names = shown.map((card) => card.querySelector('p')!.textContent);
      expect(new Set(names).size).toBe(names.length);
    } finally {
      layout.restore();
    }
  });
});

describe('the Team Members page in German', { timeout: 30_000 }, () => {
  afterEach(() => setLanguage('en'));

  it('names everything in German and writes numbers the German way', async () => {
    await setLanguage('de');
    serve(() => ({ status: 200, data: [{ ...mia, role: 'admin', active: false }] }));
    open();
    expect(screen.getByRole('heading', { name: 'Teammitglieder' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Bericht herunterladen' })).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Nach Name oder E-Mail suchen' })).toBeVisible();
    const role = screen.getByRole('combobox', { name: 'Rolle' });
    expect(
      within(role)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Alle Rollen', 'Admins', 'Mitglieder']);
    const card = (await screen.findByText('Mia Member')).closest<HTMLElement>('[role="listitem"]')!;
    const count = (label: string) => within(card).getByText(label).nextElementSibling;
    expect(count('Offen')).toHaveTextContent('2');
    expect(count('In Arbeit')).toHaveTextContent('1.234');
    expect(count('Erledigt')).toHaveTextContent('0');
    expect(within(card).getByText('Deaktiviert')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Mia Member verwalten' })).toBeInTheDocument();
  });
});
