import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../test/stub-api';
import {
  api,
  ApiError,
  errorMessage,
  holdRequests,
  setUnauthorizedHandler,
  statusOf,
} from './api-client';

afterEach(() => {
  setUnauthorizedHandler(null);
  holdRequests(false);
});

describe('api client', () => {
  it('sends the stored token as a Bearer header, and none without one', async () => {
    const { requests } = stubApi(() => ({ status: 200, data: {} }));
    await api.get('/api/tasks');
    localStorage.setItem('token', 'jwt-9');
    await api.get('/api/tasks');
    expect(requests.map((request) => request.headers.authorization)).toEqual([
      undefined,
      'Bearer jwt-9',
    ]);
  });

  it('puts params in the query string, leaves undefined ones out, and sends a body as JSON', async () => {
    const { requests } = stubApi(() => ({ status: 200, data: { ok: true } }));
    await api.get('/api/tasks', {
      params: { status: 'In Progress', limit: 100, cursor: undefined },
    });
    await api.put('/api/tasks/1', { title: 'T' });
    expect(requests[0]).toMatchObject({
      url: '/api/tasks',
      query: '?status=In+Progress&limit=100',
    });
    expect(requests[1]).toMatchObject({
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: { title: 'T' },
    });
  });

  it('answers data, status and the headers by lower-case name', async () => {
    stubApi(() => ({ status: 200, data: [{ _id: 'u1' }], headers: { 'X-Next-Cursor': 'c2' } }));
    const { data, status, headers } = await api.get<{ _id: string }[]>('/api/users');
    expect(data).toEqual([{ _id: 'u1' }]);
    expect(status).toBe(200);
    expect(headers['x-next-cursor']).toBe('c2');
  });

  it("fails with the status and the server's message", async () => {
    stubApi(() => ({ status: 400, data: { message: 'Title is required' } }));
    const failure: unknown = await api.post('/api/tasks', {}).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(statusOf(failure)).toBe(400);
    expect(errorMessage(failure, 'fallback')).toBe('Title is required');
    expect(errorMessage(new Error('network'), 'fallback')).toBe('fallback');
  });

  it('sends nothing while held (a session ending), but sign-in and calls with their own token', async () => {
    const ended = vi.fn();
    setUnauthorizedHandler(ended);
    const { requests } = stubApi(() => ({ status: 200, data: {} }));
    holdRequests(true);
    const refused = await api.get('/api/tasks').catch((error: unknown) => error);
    expect(statusOf(refused)).toBe(401);
    await api.post('/api/auth/login', {});
    await api.post('/api/auth/logout', undefined, { headers: { Authorization: 'Bearer old' } });
    expect(requests.map((request) => request.url)).toEqual(['/api/auth/login', '/api/auth/logout']);
    // Refused here, unsent: the session is not ended a second time.
    expect(ended).not.toHaveBeenCalled();
    holdRequests(false);
    await api.get('/api/tasks');
    expect(requests).toHaveLength(3);
  });

  it('ends the session on a 401, except from the sign-in, sign-up and session calls', async () => {
    const ended = vi.fn();
    setUnauthorizedHandler(ended);
    stubApi(() => ({ status: 401, data: { message: 'Not authorized' } }));
    await api.post('/api/auth/login', {}).catch(() => undefined);
    await api.get('/api/auth/profile').catch(() => undefined);
    // A landing page's data asked for alongside the session check leaves the 401 to that check.
    const early = await api
      .get('/api/tasks/dashboard-data', { beforeSessionCheck: true })
      .catch((error: unknown) => error);
    expect(early).toBeInstanceOf(ApiError);
    expect(ended).not.toHaveBeenCalled();
    await api.get('/api/tasks').catch(() => undefined);
    expect(ended).toHaveBeenCalledTimes(1);
  });

  it('sends a FormData body as multipart with its boundary, whatever Content-Type was asked', async () => {
    const { requests } = stubApi(() => ({ status: 200, data: { imageUrl: '/uploads/a.png' } }));
    const form = new FormData();
    form.append('image', new File(['x'], 'a.png', { type: 'image/png' }));
    await api.post('/api/auth/upload-image', form, {
      headers: { 'Content-Type': 'multipart/form-data' },
    });
    expect(requests[0]!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
  });
});
