import { validationMessages } from '@task-manager/shared';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { paths } from '../../../config/paths';
import { setLanguage } from '../../../lib/i18n';
import { buildUser } from '../../../test/factories';
import { renderPage } from '../../../test/render-page';
import { stubApi } from '../../../test/stub-api';
import { LoginPage } from './login-page';

function open() {
  renderPage(<LoginPage />, { path: paths.login });
}

const admin = buildUser({ name: 'Ada', email: 'ada@example.com', role: 'admin' });

describe('LoginPage', () => {
  it('rejects a bad e-mail with the shared schema message, loaded on demand, and sends nothing', async () => {
    const stub = stubApi(() => ({ status: 500, data: {} }));
    open();
    await userEvent.type(screen.getByLabelText('Email Address'), 'not-an-email');
    await userEvent.type(screen.getByLabelText('Password'), 'whatever1');
    await userEvent.click(screen.getByRole('button', { name: 'LOGIN' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(validationMessages.invalidEmail);
    expect(stub.requests).toEqual([]);
  });

  it('signs in with valid input: sends it once, keeps the token and opens the dashboard', async () => {
    const stub = stubApi(() => ({ status: 200, data: { ...admin, token: 'jwt-1' } }));
    open();
    await userEvent.type(screen.getByLabelText('Email Address'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'secret-pass');
    await userEvent.click(screen.getByRole('button', { name: 'LOGIN' }));
    expect(await screen.findByRole('status', { name: 'Location' })).toHaveTextContent(
      '/admin/dashboard',
    );
    expect(stub.requests).toEqual([
      expect.objectContaining({
        method: 'POST',
        url: '/api/auth/login',
        body: { email: 'ada@example.com', password: 'secret-pass' },
      }),
    ]);
    expect(localStorage.getItem('token')).toBe('jwt-1');
  });

  it.each([
    [
      'the shared link it was opened from, with its filters',
      '/admin/tasks?q=deplo&priority=High',
      '/admin/tasks?q=deplo&priority=High',
    ],
    ["not another role's page", '/user/tasks', '/admin/dashboard'],
    ['never another site', '//evil.example/admin/tasks', '/admin/dashboard'],
  ])('after signing in, leads to %s', async (_name, from, expected) => {
    stubApi(() => ({ status: 200, data: { ...admin, token: 'jwt-1' } }));
    renderPage(<LoginPage />, { path: paths.login, state: { from } });
    await userEvent.type(screen.getByLabelText('Email Address'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'secret-pass');
    await userEvent.click(screen.getByRole('button', { name: 'LOGIN' }));
    const location = await screen.findByRole('status', { name: 'Location' });
    expect(location.textContent?.split(' ')[0]).toBe(expected);
  });

  it("shows the server's message when the credentials are wrong", async () => {
    stubApi(() => ({ status: 401, data: { message: 'Invalid email or password' } }));
    open();
    await userEvent.type(screen.getByLabelText('Email Address'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'wrong-pass');
    await userEvent.click(screen.getByRole('button', { name: 'LOGIN' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password');
  });
});

describe('LoginPage in German', () => {
  afterEach(() => setLanguage('en'));

  it('speaks German throughout, and welcomes in German after signing in', async () => {
    await setLanguage('de');
    stubApi(() => ({ status: 200, data: { ...admin, token: 'jwt-1' } }));
    open();
    expect(screen.getByRole('heading', { name: 'Willkommen zurück' })).toBeInTheDocument();
    expect(screen.getByText('Bitte gib deine Daten ein, um dich anzumelden')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Registrieren' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Passwort vergessen?' })).toBeInTheDocument();
    const password = screen.getByLabelText('Passwort');
    expect(password).toHaveAttribute('placeholder', 'Mindestens 8 Zeichen');
    await userEvent.click(screen.getByRole('button', { name: 'Passwort anzeigen' }));
    expect(screen.getByRole('button', { name: 'Passwort verbergen' })).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('E-Mail-Adresse'), 'ada@example.com');
    await userEvent.type(password, 'secret-pass');
    await userEvent.click(screen.getByRole('button', { name: 'ANMELDEN' }));
    expect(await screen.findByText('Willkommen zurück, Ada!')).toBeInTheDocument();
  });
});
