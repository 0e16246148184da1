import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../../lib/i18n';
import { TOKEN_KEY } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { paths } from '../../../config/paths';
import { buildUser } from '../../../test/factories';
import { renderPage } from '../../../test/render-page';
import { stubApi, type Answer } from '../../../test/stub-api';
import { ForgotPasswordPage } from './forgot-password-page';
import { ProfilePage } from './profile-page';
import { ResetPasswordPage } from './reset-password-page';

const ada = buildUser({ name: 'Ada Lovelace', email: 'ada@example.com', role: 'member' });

function section(name: string) {
  return within(screen.getByRole('region', { name }));
}

// Forms typed key by key: on a busy CI machine a test takes seconds, not its default five.
describe('ProfilePage', { timeout: 30_000 }, () => {
  it('saves a new name alone and keeps the fresh token the answer carries', async () => {
    const stub = stubApi((request) =>
      request.method === 'PUT'
        ? { status: 200, data: { ...ada, name: 'Ada King', token: 'jwt-new' } }
        : { status: 200, data: [] },
    );
    renderPage(<ProfilePage />, { path: paths.profile, signedInAs: ada });
    const details = section('Your details');
    const name = details.getByLabelText('Full Name');
    await userEvent.clear(name);
    await userEvent.type(name, 'Ada King');
    await userEvent.click(details.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Profile updated')).toBeInTheDocument();
    expect(stub.requests.filter((r) => r.method === 'PUT')).toEqual([
      expect.objectContaining({ url: '/api/auth/profile', body: { name: 'Ada King' } }),
    ]);
    expect(localStorage.getItem(TOKEN_KEY)).toBe('jwt-new');
  });

  it('changes the password: refuses a mismatch without sending, then sends current and new', async () => {
    const stub = stubApi(() => ({ status: 200, data: { ...ada, token: 'jwt-2' } }));
    renderPage(<ProfilePage />, { path: paths.profile, signedInAs: ada });
    const password = section('Password');
    await userEvent.type(password.getByLabelText('Current Password'), 'old-secret-1');
    await userEvent.type(password.getByLabelText('New Password'), 'a new passphrase 7');
    await userEvent.type(password.getByLabelText('Confirm New Password'), 'a new passphrase 8');
    await userEvent.click(password.getByRole('button', { name: 'Change password' }));
    expect(password.getByRole('alert')).toHaveTextContent('The new passwords do not match.');
    expect(stub.requests).toEqual([]);
    // The current one again: refused too, without sending.
    await userEvent.clear(password.getByLabelText('New Password'));
    await userEvent.type(password.getByLabelText('New Password'), 'old-secret-1');
    await userEvent.clear(password.getByLabelText('Confirm New Password'));
    await userEvent.type(password.getByLabelText('Confirm New Password'), 'old-secret-1');
    await userEvent.click(password.getByRole('button', { name: 'Change password' }));
    expect(password.getByRole('alert')).toHaveTextContent(
      'The new password must be different from the current one.',
    );
    expect(stub.requests).toEqual([]);
    await userEvent.clear(password.getByLabelText('New Password'));
    await userEvent.type(password.getByLabelText('New Password'), 'a new passphrase 7');

    await userEvent.clear(password.getByLabelText('Confirm New Password'));
    await userEvent.type(password.getByLabelText('Confirm New Password'), 'a new passphrase 7');
    await userEvent.click(password.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText(/Every other session has been signed out/)).toBeInTheDocument();
    expect(stub.requests).toEqual([
      expect.objectContaining({
        method: 'PUT',
        body: { currentPassword: 'old-secret-1', newPassword: 'a new passphrase 7' },
      }),
    ]);
    // Nothing typed stays in the password fields once it is saved.
    expect(password.getByLabelText('Current Password')).toHaveValue('');
  });

  it("shows the server's message when the current password is wrong, and keeps what was typed", async () => {
    stubApi(() => ({
      status: 400,
      data: { message: 'Current password is incorrect', code: 'wrong_current_password' },
    }));
    renderPage(<ProfilePage />, { path: paths.profile, signedInAs: ada });
    const email = section('E-mail');
    await userEvent.clear(email.getByLabelText('Email Address'));
    await userEvent.type(email.getByLabelText('Email Address'), 'ada@lovelace.org');
    await userEvent.type(email.getByLabelText('Current Password'), 'not-it-at-all');
    await userEvent.click(email.getByRole('button', { name: 'Change e-mail' }));
    expect(await email.findByRole('alert')).toHaveTextContent('Current password is incorrect');
    expect(email.getByLabelText('Email Address')).toHaveValue('ada@lovelace.org');
  });

  it('signs out everywhere only after a confirmation, then ends this session', async () => {
    const stub = stubApi(() => ({ status: 200, data: { message: 'Logged out' } }));
    renderPage(<ProfilePage />, { path: paths.profile, signedInAs: ada });
    const sessions = section('Sessions');
    await userEvent.click(sessions.getByRole('button', { name: 'Sign out everywhere' }));
    expect(stub.requests).toEqual([]);
    await userEvent.click(sessions.getByRole('button', { name: 'Yes, sign out everywhere' }));
    expect(await screen.findByRole('status', { name: 'Location' })).toHaveTextContent('/login');
    expect(stub.requests[0]).toEqual(
      expect.objectContaining({ method: 'POST', url: '/api/auth/logout-all' }),
    );
    // Said so; and no logout with the token just ended (it would come back refused).
    expect(await screen.findByText('Signed out on every device')).toBeInTheDocument();
    expect(stub.requests.map((call) => call.url)).not.toContain('/api/auth/logout');
  });
});

describe('the language', () => {
  afterEach(() => setLanguage('en'));

  /** The profile page of Ada (language `en` on her account), PUTs answered by `save`. */
  function openProfile(save: (body: unknown) => Answer) {
    const stub = stubApi((request) =>
      request.method === 'PUT' && request.url === '/api/auth/profile'
        ? save(request.body)
        : { status: 200, data: [] },
    );
    const page = renderPage(<ProfilePage />, {
      path: paths.profile,
      signedInAs: { ...ada, language: 'en' },
    });
    const saves = () => stub.requests.filter((request) => request.method === 'PUT');
    return { ...page, saves };
  }

  it('changes at once on the profile and is remembered on this browser', async () => {
    openProfile(() => ({ status: 200, data: { ...ada, language: 'de', token: 'jwt-de' } }));
    await userEvent.selectOptions(screen.getByLabelText('Language of the app'), 'de');
    expect(await screen.findByRole('heading', { name: 'Profil' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Deine Angaben' })).toBeInTheDocument();
    expect(localStorage.getItem('language')).toBe('de');
    expect(document.documentElement.lang).toBe('de');
  });

  it('is saved on the account alone, keeping the fresh token and the user the answer carries', async () => {
    const { saves, queryClient } = openProfile(() => ({
      status: 200,
      data: { ...ada, language: 'de', token: 'jwt-de' },
    }));
    await userEvent.selectOptions(screen.getByLabelText('Language of the app'), 'de');
    await waitFor(() => expect(localStorage.getItem(TOKEN_KEY)).toBe('jwt-de'));
    expect(saves()).toEqual([
      expect.objectContaining({ url: '/api/auth/profile', body: { language: 'de' } }),
    ]);
    expect(queryClient.getQueryData(queryKeys.profile)).toEqual({ ...ada, language: 'de' });
    expect(screen.getByLabelText('Sprache der App')).toHaveValue('de');
    // The answer is no sign-in: it is not saved again, and nothing is said.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(saves()).toHaveLength(1);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('keeps the new language here when the save fails, and says so in it', async () => {
    // The client warns about any 5xx; this one is expected.
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { saves } = openProfile(() => ({ status: 500, data: { message: 'Server error' } }));
    await userEvent.selectOptions(screen.getByLabelText('Language of the app'), 'de');
    expect(
      await screen.findByText(
        'Sprache auf diesem Gerät geändert, aber nicht im Konto gespeichert: E-Mails kommen womöglich noch in der bisherigen Sprache.',
      ),
    ).toBeInTheDocument();
    expect(saves()).toHaveLength(1);
    expect(screen.getByRole('heading', { name: 'Profil' })).toBeInTheDocument();
    expect(screen.getByLabelText('Sprache der App')).toHaveValue('de');
    expect(localStorage.getItem('language')).toBe('de');
  });
});

describe('ForgotPasswordPage', () => {
  it('without e-mail on the server, tells the person to ask an admin', async () => {
    stubApi(() => ({ status: 200, data: { signupMode: 'open', passwordResetByEmail: false } }));
    renderPage(<ForgotPasswordPage />, { path: paths.forgotPassword });
    expect(await screen.findByText(/Ask an admin of your team/)).toBeInTheDocument();
    expect(screen.queryByLabelText('Email Address')).not.toBeInTheDocument();
  });

  it('with e-mail, sends the address and answers the same whether it has an account or not', async () => {
    const stub = stubApi((request) =>
      request.url === '/api/auth/options'
        ? { status: 200, data: { signupMode: 'open', passwordResetByEmail: true } }
        : { status: 200, data: { message: 'ok' } },
    );
    renderPage(<ForgotPasswordPage />, { path: paths.forgotPassword });
    await userEvent.type(await screen.findByLabelText('Email Address'), 'who@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'SEND RESET LINK' }));
    expect(
      await screen.findByText(
        'If an account uses who@example.com, a link to set a new password is on its way. It works once, for one hour.',
      ),
    ).toHaveAttribute('role', 'status');
    expect(stub.requests.at(-1)).toEqual(
      expect.objectContaining({
        method: 'POST',
        url: '/api/auth/password-reset/request',
        body: { email: 'who@example.com' },
      }),
    );
  });
});

describe('ResetPasswordPage', () => {
  it('sends the token from the link with the new password', async () => {
    const stub = stubApi(() => ({ status: 200, data: { message: 'Password updated' } }));
    renderPage(<ResetPasswordPage />, {
      path: `${paths.resetPassword}?token=abc123`,
      route: paths.resetPassword,
    });
    await userEvent.type(screen.getByLabelText('New Password'), 'a fresh passphrase 3');
    await userEvent.type(screen.getByLabelText('Confirm New Password'), 'a fresh passphrase 3');
    await userEvent.click(screen.getByRole('button', { name: 'SET PASSWORD' }));
    expect(await screen.findByText(/Your password has been changed/)).toHaveAttribute(
      'role',
      'status',
    );
    expect(stub.requests).toEqual([
      expect.objectContaining({
        url: '/api/auth/password-reset/confirm',
        body: { token: 'abc123', password: 'a fresh passphrase 3' },
      }),
    ]);
  });

  it('shows why a used or expired link is refused', async () => {
    stubApi(() => ({
      status: 400,
      data: { message: 'This link has expired or was already used', code: 'bad_request' },
    }));
    renderPage(<ResetPasswordPage />, {
      path: `${paths.resetPassword}?token=old`,
      route: paths.resetPassword,
    });
    await userEvent.type(screen.getByLabelText('New Password'), 'a fresh passphrase 3');
    await userEvent.type(screen.getByLabelText('Confirm New Password'), 'a fresh passphrase 3');
    await userEvent.click(screen.getByRole('button', { name: 'SET PASSWORD' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This link has expired');
  });
});
