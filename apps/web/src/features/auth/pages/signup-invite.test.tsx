import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { paths } from '../../../config/paths';
import { setLanguage } from '../../../lib/i18n';
import { buildUser } from '../../../test/factories';
import { renderPage } from '../../../test/render-page';
import { stubApi } from '../../../test/stub-api';
import { SignUpPage } from './signup-page';

const open = (search = '') =>
  renderPage(<SignUpPage />, { path: `${paths.signup}${search}`, route: paths.signup });

describe('SignUpPage with invitations', () => {
  it('says what an invitation link grants and signs up with its token, without the admin code', async () => {
    const stub = stubApi((request) => {
      if (request.url === '/api/invites/lookup')
        return { status: 200, data: { role: 'admin', email: null } };
      if (request.url === '/api/auth/options')
        return { status: 200, data: { signupMode: 'invite', passwordResetByEmail: false } };
      return { status: 201, data: { ...buildUser({ role: 'admin' }), token: 'jwt' } };
    });
    open('?invite=abc_DEF-123');
    expect(
      await screen.findByText('You have been invited to join as an admin.'),
    ).toBeInTheDocument();
    expect(screen.queryByLabelText('Admin Invite Token')).not.toBeInTheDocument();
    expect(screen.queryByText(/by invitation only/)).not.toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Full Name'), 'Ivy Invited');
    await userEvent.type(screen.getByLabelText('Email Address'), 'ivy@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'a long passphrase 42');
    await userEvent.click(screen.getByRole('button', { name: 'SIGN UP' }));
    expect(await screen.findByRole('status', { name: 'Location' })).toHaveTextContent(
      '/admin/dashboard',
    );
    const registration = stub.requests.find((request) => request.url === '/api/auth/register');
    expect(registration?.body).toEqual(
      expect.objectContaining({ invite: 'abc_DEF-123', adminInviteToken: '' }),
    );
  });

  it('fills in the e-mail an invitation was made for, which can still be changed', async () => {
    const stub = stubApi((request) => {
      if (request.url === '/api/invites/lookup')
        return { status: 200, data: { role: 'member', email: 'new.person@example.com' } };
      if (request.url === '/api/auth/options')
        return { status: 200, data: { signupMode: 'open', passwordResetByEmail: false } };
      return { status: 201, data: { ...buildUser({ role: 'member' }), token: 'jwt' } };
    });
    open('?invite=for-one');
    const email = screen.getByLabelText('Email Address');
    expect(await screen.findByDisplayValue('new.person@example.com')).toBe(email);
    // What is typed replaces it.
    await userEvent.clear(email);
    expect(email).toHaveValue('');
    await userEvent.type(email, 'new.person@example.org');
    await userEvent.type(screen.getByLabelText('Full Name'), 'New Person');
    await userEvent.type(screen.getByLabelText('Password'), 'a long passphrase 42');
    await userEvent.click(screen.getByRole('button', { name: 'SIGN UP' }));
    expect(await screen.findByRole('status', { name: 'Location' })).toHaveTextContent(
      '/user/dashboard',
    );
    const registration = stub.requests.find((request) => request.url === '/api/auth/register');
    expect(registration?.body).toEqual(
      expect.objectContaining({ email: 'new.person@example.org', invite: 'for-one' }),
    );
  });

  it('says when a link can no longer be used', async () => {
    stubApi((request) =>
      request.url === '/api/invites/lookup'
        ? { status: 404, data: { message: 'Invitation not found', code: 'not_found' } }
        : { status: 200, data: { signupMode: 'open', passwordResetByEmail: false } },
    );
    open('?invite=gone');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This invitation link has expired, was already used or was revoked.',
    );
  });

  it('in invitation-only mode, says so on a plain visit', async () => {
    stubApi(() => ({ status: 200, data: { signupMode: 'invite', passwordResetByEmail: true } }));
    open();
    expect(
      await screen.findByText(
        'Sign-up on this server is by invitation only. Ask an admin for an invitation link.',
      ),
    ).toBeInTheDocument();
  });
});

describe('SignUpPage in German', () => {
  afterEach(() => setLanguage('en'));

  it('says in German what an invitation grants, and that sign-up is by invitation only', async () => {
    await setLanguage('de');
    stubApi((request) =>
      request.url === '/api/invites/lookup'
        ? { status: 200, data: { role: 'member', email: 'ivy@example.com' } }
        : { status: 200, data: { signupMode: 'invite', passwordResetByEmail: false } },
    );
    open('?invite=abc');
    expect(
      await screen.findByText('Du wurdest mit ivy@example.com als Mitglied eingeladen.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Konto erstellen' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'REGISTRIEREN' })).toBeInTheDocument();
  });
});
