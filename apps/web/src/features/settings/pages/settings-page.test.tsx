import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { paths } from '../../../config/paths';
import { setLanguage } from '../../../lib/i18n';
import { buildUser } from '../../../test/factories';
import { renderPage } from '../../../test/render-page';
import { stubApi, type RecordedRequest } from '../../../test/stub-api';
import { SettingsPage } from './settings-page';

const admin = buildUser({ role: 'admin' });
const pending = {
  _id: '00000000-0000-4000-8000-0000000000a1',
  role: 'member',
  email: 'new@example.com',
  status: 'pending',
  createdBy: { _id: admin._id, name: admin.name },
  createdAt: '2031-01-01T00:00:00.000Z',
  expiresAt: '2031-01-08T00:00:00.000Z',
  usedAt: null,
  revokedAt: null,
};

function serve(
  extra: (request: RecordedRequest) => { status: number; data?: unknown } | undefined,
) {
  return stubApi((request) => {
    const answer = extra(request);
    if (answer) return answer;
    if (request.url === '/api/settings')
      return { status: 200, data: { signupMode: 'open', adminInviteToken: '123456' } };
    if (request.url === '/api/invites') return { status: 200, data: [pending] };
    return undefined;
  });
}

describe('SettingsPage', () => {
  it('shows the sign-up mode and the admin invite token, and rotates it after a confirmation', async () => {
    const stub = serve((request) =>
      request.method === 'POST' && request.url === '/api/settings/admin-invite-token'
        ? { status: 200, data: { adminInviteToken: '654321' } }
        : undefined,
    );
    renderPage(<SettingsPage />, { path: paths.admin.settings, signedInAs: admin });
    const signup = within(screen.getByRole('region', { name: 'Sign-up' }));
    expect(await signup.findByText('123456')).toBeInTheDocument();
    expect(signup.getByText(/Anyone who can reach this server can sign up/)).toBeInTheDocument();
    await userEvent.click(signup.getByRole('button', { name: 'Rotate token' }));
    await userEvent.click(signup.getByRole('button', { name: 'Yes, rotate it' }));
    expect(await signup.findByText('654321')).toBeInTheDocument();
    expect(stub.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
  });

  it('creates an invitation, shows its link once, and lists and revokes pending ones', async () => {
    const stub = serve((request) => {
      if (request.method === 'POST' && request.url === '/api/invites')
        return {
          status: 201,
          data: { ...pending, _id: 'new', token: 'tok', url: '/signup?invite=tok', email: null },
        };
      if (request.method === 'DELETE') return { status: 200, data: { message: 'Revoked' } };
      return undefined;
    });
    renderPage(<SettingsPage />, { path: paths.admin.settings, signedInAs: admin });
    const invitations = within(screen.getByRole('region', { name: 'Invitations' }));
    expect(await invitations.findByText('new@example.com')).toBeInTheDocument();
    await userEvent.selectOptions(invitations.getByLabelText('Role'), 'admin');
    await userEvent.selectOptions(invitations.getByLabelText('Expires in'), '30');
    await userEvent.click(invitations.getByRole('button', { name: 'Create invitation link' }));
    expect(await invitations.findByLabelText('New invitation link (shown only now)')).toHaveValue(
      `${window.location.origin}/signup?invite=tok`,
    );
    expect(stub.requests.find((request) => request.method === 'POST')?.body).toEqual({
      role: 'admin',
      expiresInDays: 30,
    });
    await userEvent.click(
      invitations.getByRole('button', { name: 'Revoke the invitation for new@example.com' }),
    );
    expect(await screen.findByText('Invitation revoked')).toBeInTheDocument();
    expect(stub.requests.find((request) => request.method === 'DELETE')?.url).toBe(
      `/api/invites/${pending._id}`,
    );
  });
});

describe('SettingsPage in German', () => {
  afterEach(() => setLanguage('en'));

  it('lists the invitations in German, dates included', async () => {
    await setLanguage('de');
    serve(() => undefined);
    renderPage(<SettingsPage />, { path: paths.admin.settings, signedInAs: admin });
    expect(screen.getByRole('heading', { name: 'Einstellungen', level: 1 })).toBeInTheDocument();
    const invitations = within(screen.getByRole('region', { name: 'Einladungen' }));
    const row = (await invitations.findByText('new@example.com')).closest('tr')!;
    expect(within(row).getByText('Mitglied')).toBeInTheDocument();
    expect(within(row).getByText('Wartet')).toBeInTheDocument();
    expect(within(row).getByText('8. Januar 2031')).toBeInTheDocument();
    expect(
      within(row).getByRole('button', { name: 'Einladung für new@example.com widerrufen' }),
    ).toBeInTheDocument();
    const days = invitations.getByLabelText('Läuft ab in');
    expect(
      within(days)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['1 Tag', '7 Tagen', '30 Tagen']);
  });
});
