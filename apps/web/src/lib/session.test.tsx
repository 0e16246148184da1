import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { buildUser } from '../test/factories';
import { stubApi, type Answer, type RecordedRequest } from '../test/stub-api';
import { renderPage } from '../test/render-page';
import { api, TOKEN_KEY } from './api-client';
import { createQueryClient } from './query-client';
import { notify } from './notify';
import { SessionProvider, useSession } from './session';

const user = buildUser({ name: 'Ann Admin', role: 'admin' });

let stub: ReturnType<typeof stubApi> | undefined;

function Probe() {
  const { user: current, loading, signOut } = useSession();
  return (
    <>
      <p>At {useLocation().pathname}</p>
      <p>{loading ? 'Loading' : current ? `Signed in as ${current.name}` : 'Signed out'}</p>
      <button type="button" onClick={signOut}>
        Logout
      </button>
    </>
  );
}

/** A signed-in session whose logout call is answered by `logout`. */
async function renderSignedIn(logout: (request: RecordedRequest) => Answer | Promise<Answer>) {
  localStorage.setItem(TOKEN_KEY, 'stored-token');
  stub = stubApi((request) => {
    if (request.method === 'GET' && request.url === '/api/auth/profile') {
      return { status: 200, data: user };
    }
    if (request.method === 'POST' && request.url === '/api/auth/logout') return logout(request);
    return undefined;
  });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={['/admin/dashboard']}>
        <SessionProvider>
          <Routes>
            <Route path="*" element={<Probe />} />
          </Routes>
        </SessionProvider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  expect(await screen.findByText('Signed in as Ann Admin')).toBeInTheDocument();
}

const logoutCalls = () =>
  stub!.requests.filter(
    (request) => request.method === 'POST' && request.url === '/api/auth/logout',
  );

describe('signOut', () => {
  it('asks the server to end the token (POST /api/auth/logout) and signs out', async () => {
    await renderSignedIn(() => ({ status: 200, data: { message: 'Logged out successfully' } }));
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(logoutCalls()).toHaveLength(1));
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(screen.getByText('At /login')).toBeInTheDocument();
    expect(screen.getByText('Signed out')).toBeInTheDocument();
  });

  it('signs out at once, without waiting for the server, and even when the call fails', async () => {
    let fail: (answer: Answer) => void = () => {};
    await renderSignedIn(() => new Promise<Answer>((resolve) => (fail = resolve)));
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    // The server has not answered yet: the local session is over all the same.
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(screen.getByText('At /login')).toBeInTheDocument();
    await waitFor(() => expect(logoutCalls()).toHaveLength(1));
    // The client warns about any 5xx; this one is expected.
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    fail({ status: 500, data: { message: 'Server error' } });
    // The failure changes nothing and is not retried.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(screen.getByText('Signed out')).toBeInTheDocument();
    expect(logoutCalls()).toHaveLength(1);
  });
});

describe('a session ended elsewhere', () => {
  /** A page whose button makes a request the server refuses with `answer`, toasting failures. */
  function RefusedPage() {
    return (
      <button
        type="button"
        onClick={() => void api.get('/api/tasks/t1').catch(() => notify('error', 'Load failed'))}
      >
        Load
      </button>
    );
  }

  async function refuse(answer: Answer) {
    localStorage.setItem(TOKEN_KEY, 'stored-token');
    stubApi((request) => (request.url === '/api/tasks/t1' ? answer : undefined));
    renderPage(<RefusedPage />, {
      path: '/admin/tasks/t1?tab=history',
      route: '/admin/tasks/:id',
      signedInAs: user,
    });
    fireEvent.click(screen.getByRole('button', { name: 'Load' }));
  }

  it('signs out, says the session expired, and sign-in leads back to the page', async () => {
    await refuse({ status: 401, data: { message: 'Not authorized, token failed' } });
    expect(await screen.findByText('Session expired, please log in again')).toBeInTheDocument();
    // The toast may show a moment before the sign-in page has rendered.
    expect(await screen.findByRole('status', { name: 'Location' })).toHaveTextContent(
      '/login {"from":"/admin/tasks/t1?tab=history"}',
    );
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
    // The request's own failure says nothing beside it: there is nothing to try again.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText('Load failed')).not.toBeInTheDocument();
  });

  it('still toasts a failure that is not a refused token', async () => {
    await refuse({ status: 500, data: { message: 'Server error' } });
    expect(await screen.findByText('Load failed')).toBeInTheDocument();
  });

  it('says so when the account was deactivated', async () => {
    await refuse({
      status: 401,
      data: {
        message: 'This account has been deactivated: ask an admin to reactivate it',
        code: 'account_deactivated',
      },
    });
    expect(
      await screen.findByText('This account has been deactivated: ask an admin to reactivate it'),
    ).toBeInTheDocument();
    expect(screen.queryByText('Session expired, please log in again')).not.toBeInTheDocument();
  });
});
