import { validationMessages } from '@task-manager/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionProvider } from '../../../lib/session';
import { stubApi } from '../../../test/stub-api';
import { LoginPage } from './login-page';

let stub: ReturnType<typeof stubApi> | undefined;
afterEach(() => {
  stub?.restore();
  localStorage.clear();
});

function open() {
  const queryClient = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={['/login']}>
        <SessionProvider>
          <Routes>
            <Route path="/login" element={<LoginPage />} />
            <Route path="/admin/dashboard" element={<h1>Admin dashboard</h1>} />
          </Routes>
        </SessionProvider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const admin = {
  _id: '00000000-0000-4000-8000-000000000001',
  name: 'Ada',
  email: 'ada@example.com',
  role: 'admin',
  profileImageUrl: null,
  createdAt: '2031-01-01T00:00:00.000Z',
  updatedAt: '2031-01-01T00:00:00.000Z',
};

describe('LoginPage', () => {
  it('rejects a bad e-mail with the shared schema message, loaded on demand, and sends nothing', async () => {
    stub = stubApi(() => ({ status: 500, data: {} }));
    open();
    await userEvent.type(screen.getByLabelText('Email Address'), 'not-an-email');
    await userEvent.type(screen.getByLabelText('Password'), 'whatever1');
    await userEvent.click(screen.getByRole('button', { name: 'LOGIN' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(validationMessages.invalidEmail);
    expect(stub.requests).toEqual([]);
  });

  it('signs in with valid input: sends it once, keeps the token and opens the dashboard', async () => {
    stub = stubApi(() => ({ status: 200, data: { ...admin, token: 'jwt-1' } }));
    open();
    await userEvent.type(screen.getByLabelText('Email Address'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'secret-pass');
    await userEvent.click(screen.getByRole('button', { name: 'LOGIN' }));
    expect(await screen.findByRole('heading', { name: 'Admin dashboard' })).toBeInTheDocument();
    expect(stub.requests).toEqual([
      expect.objectContaining({
        method: 'POST',
        url: '/api/auth/login',
        body: { email: 'ada@example.com', password: 'secret-pass' },
      }),
    ]);
    expect(localStorage.getItem('token')).toBe('jwt-1');
  });

  it("shows the server's message when the credentials are wrong", async () => {
    stub = stubApi(() => ({ status: 401, data: { message: 'Invalid email or password' } }));
    open();
    await userEvent.type(screen.getByLabelText('Email Address'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'wrong-pass');
    await userEvent.click(screen.getByRole('button', { name: 'LOGIN' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password');
  });
});
