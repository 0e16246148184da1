import type { AuthResponse, Language, User } from '@task-manager/shared';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { paths } from '../../config/paths';
import { TOKEN_KEY } from '../../lib/api-client';
import { currentLanguage, setLanguage, useT } from '../../lib/i18n';
import { queryKeys } from '../../lib/query-keys';
import { useSession } from '../../lib/session';
import { buildUser } from '../../test/factories';
import { renderPage, type PageOptions } from '../../test/render-page';
import { stubApi, type Answer, type RecordedRequest } from '../../test/stub-api';
import { followAccountLanguage } from './account-language';
import { LoginPage } from './pages/login-page';
import { ProfilePage } from './pages/profile-page';
import { SignUpPage } from './pages/signup-page';

/** A signed-in page that shows who is signed in, in the app's language. */
function Home() {
  const { user, signOut } = useSession();
  // Drawn again when the language changes.
  useT();
  return (
    <>
      <p>{user ? `${currentLanguage()}: ${user.name}` : 'Signed out'}</p>
      <button type="button" onClick={signOut}>
        Logout
      </button>
    </>
  );
}

const ada = buildUser({ name: 'Ada', email: 'ada@example.com', role: 'admin' });

function person(language: Language | null): User {
  return { ...ada, language };
}

/** The server: profile and sign-in answer `who`, a language save answers `save` (as stored). */
function fakeServer(who: User, save?: (language: Language) => Answer | Promise<Answer>) {
  let stored = who;
  const stub = stubApi(async (request: RecordedRequest) => {
    if (request.method === 'GET' && request.url === '/api/auth/profile') {
      return { status: 200, data: stored };
    }
    if (request.method === 'POST' && request.url === '/api/auth/login') {
      return { status: 200, data: { ...stored, token: 'jwt-login' } satisfies AuthResponse };
    }
    if (request.method === 'PUT' && request.url === '/api/auth/profile') {
      const { language } = request.body as { language: Language };
      const answer = (await save?.(language)) ?? {
        status: 200,
        data: { ...stored, language, token: 'jwt-saved' } satisfies AuthResponse,
      };
      if (answer.status === 200) stored = { ...stored, language };
      return answer;
    }
    return undefined;
  });
  const saves = () => stub.requests.filter((request) => request.method === 'PUT');
  return { stub, saves };
}

/** Opens the app signed in on this browser (a stored token): the session checks it at start. */
function openSignedIn() {
  localStorage.setItem(TOKEN_KEY, 'stored-token');
  return renderPage(<Home />, { path: '/home', ...following });
}

/** As app.tsx wires the session: each sign-in brings the account's language. */
const following: Pick<PageOptions, 'onSignedIn'> = {
  onSignedIn: (user, queryClient) => void followAccountLanguage(queryClient, user),
};

/** Lets any request the last step started come back. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

afterEach(() => setLanguage('en'));

describe("the account's language, at the session check on start", () => {
  it('switches this browser to it when it differs, and saves nothing', async () => {
    const { saves } = fakeServer(person('de'));
    openSignedIn();
    expect(await screen.findByText('de: Ada')).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('de');
    expect(localStorage.getItem('language')).toBe('de');
    await settle();
    expect(saves()).toEqual([]);
  });

  it('when the account has none, saves the language shown, once and silently', async () => {
    await setLanguage('de');
    const { saves } = fakeServer(person(null));
    const { queryClient } = openSignedIn();
    expect(await screen.findByText('de: Ada')).toBeInTheDocument();
    await waitFor(() => expect(localStorage.getItem(TOKEN_KEY)).toBe('jwt-saved'));
    expect(saves()).toEqual([
      expect.objectContaining({ url: '/api/auth/profile', body: { language: 'de' } }),
    ]);
    expect(queryClient.getQueryData(queryKeys.profile)).toEqual(person('de'));
    // The save's answer, and the profile fetched again (a live update), are no sign-in: no loop.
    await queryClient.invalidateQueries({ queryKey: queryKeys.profile });
    await settle();
    expect(saves()).toHaveLength(1);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('a failed save says nothing and is not tried again', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { saves } = fakeServer(person(null), () => ({
      status: 500,
      data: { message: 'Server error' },
    }));
    const { queryClient } = openSignedIn();
    expect(await screen.findByText('en: Ada')).toBeInTheDocument();
    await waitFor(() => expect(saves()).toHaveLength(1));
    expect(saves()[0]?.body).toEqual({ language: 'en' });
    await queryClient.invalidateQueries({ queryKey: queryKeys.profile });
    await settle();
    expect(saves()).toHaveLength(1);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(localStorage.getItem(TOKEN_KEY)).toBe('stored-token');
  });

  it('a save answered after signing out does not bring the session back', async () => {
    let answer: (answer: Answer) => void = () => {};
    const { saves } = fakeServer(person(null), () => new Promise((resolve) => (answer = resolve)));
    const { queryClient } = openSignedIn();
    await waitFor(() => expect(saves()).toHaveLength(1));
    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));
    answer({ status: 200, data: { ...person('en'), token: 'jwt-saved' } });
    await settle();
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(queryClient.getQueryData(queryKeys.profile)).toBeNull();
    expect(screen.getByRole('status', { name: 'Location' })).toHaveTextContent('/login');
  });
});

describe("the account's language, chosen while the session's own save is on its way", () => {
  it('is saved after it, so the account ends with the choice', async () => {
    const held: Array<(answer: Answer) => void> = [];
    const { saves } = fakeServer(person(null), () => new Promise((resolve) => held.push(resolve)));
    localStorage.setItem(TOKEN_KEY, 'stored-token');
    const { queryClient } = renderPage(<ProfilePage />, { path: paths.profile, ...following });
    await waitFor(() => expect(saves()).toHaveLength(1));
    expect(saves()[0]?.body).toEqual({ language: 'en' });
    await userEvent.selectOptions(screen.getByLabelText('Language of the app'), 'de');
    expect(await screen.findByRole('heading', { name: 'Profil' })).toBeInTheDocument();
    // The choice waits for the answer to the save before it: the server cannot finish them the
    // other way round and keep English.
    await settle();
    expect(saves()).toHaveLength(1);
    held[0]!({ status: 200, data: { ...person('en'), token: 'jwt-en' } });
    await waitFor(() => expect(saves()).toHaveLength(2));
    expect(saves()[1]?.body).toEqual({ language: 'de' });
    held[1]!({ status: 200, data: { ...person('de'), token: 'jwt-de' } });
    await waitFor(() => expect(localStorage.getItem(TOKEN_KEY)).toBe('jwt-de'));
    expect(queryClient.getQueryData(queryKeys.profile)).toEqual(person('de'));
  });
});

describe("the account's language, at sign-in and sign-up", () => {
  async function signIn({ requests }: ReturnType<typeof stubApi>) {
    renderPage(<LoginPage />, { path: paths.login, ...following });
    // A signed-out visitor: nothing is asked or saved before the sign-in.
    await settle();
    expect(requests).toEqual([]);
    await userEvent.type(screen.getByLabelText('Email Address'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'secret-pass');
    await userEvent.click(screen.getByRole('button', { name: 'LOGIN' }));
    expect(await screen.findByRole('status', { name: 'Location' })).toHaveTextContent(
      '/admin/dashboard',
    );
  }

  it('signing in brings the language the account keeps', async () => {
    const { stub, saves } = fakeServer(person('de'));
    await signIn(stub);
    await waitFor(() => expect(document.documentElement.lang).toBe('de'));
    expect(currentLanguage()).toBe('de');
    expect(localStorage.getItem('language')).toBe('de');
    await settle();
    expect(saves()).toEqual([]);
  });

  it('signing in to an account without one saves the language shown, silently', async () => {
    const { stub, saves } = fakeServer(person(null));
    await signIn(stub);
    await waitFor(() => expect(localStorage.getItem(TOKEN_KEY)).toBe('jwt-saved'));
    expect(saves()).toEqual([expect.objectContaining({ body: { language: 'en' } })]);
    await settle();
    expect(saves()).toHaveLength(1);
    expect(currentLanguage()).toBe('en');
  });

  it('signing up sends the language the person signed up in', async () => {
    await setLanguage('de');
    const stub = stubApi((request) => {
      if (request.url === '/api/auth/options')
        return { status: 200, data: { signupMode: 'open', passwordResetByEmail: false } };
      if (request.url === '/api/auth/register') {
        return { status: 201, data: { ...person('de'), token: 'jwt' } satisfies AuthResponse };
      }
      return undefined;
    });
    renderPage(<SignUpPage />, { path: paths.signup, ...following });
    await userEvent.type(screen.getByLabelText('Vollständiger Name'), 'Ada');
    await userEvent.type(screen.getByLabelText('E-Mail-Adresse'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Passwort'), 'a long passphrase 42');
    await userEvent.click(screen.getByRole('button', { name: 'REGISTRIEREN' }));
    expect(await screen.findByRole('status', { name: 'Location' })).toHaveTextContent(
      '/admin/dashboard',
    );
    const registration = stub.requests.find((request) => request.url === '/api/auth/register');
    expect(registration?.body).toEqual(expect.objectContaining({ language: 'de' }));
    // The answer carries the language it sent: nothing to switch or save.
    await settle();
    expect(stub.requests.filter((request) => request.method === 'PUT')).toEqual([]);
  });
});
