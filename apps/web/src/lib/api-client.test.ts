import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../test/stub-api';
import { api, ApiError, errorMessage, setUnauthorizedHandler, statusOf } from './api-client';

const original = api.http;
afterEach(() => {
  api.http = original;
  setUnauthorizedHandler(null);
  localStorage.clear();
});

/** Answers every request with `response` and keeps the requests as sent (headers included). */
function answerWith(response: () => Response) {
  const sent: Request[] = [];
  api.http = original.extend({
    hooks: {
      beforeRequest: [
        (request) => {
          sent.push(request.clone());
          return response();
        },
      ],
    },
  });
  return sent;
}

describe('api client', () => {
  it('sends the stored token as a Bearer header, and none without one', async () => {
    const sent = answerWith(() => Response.json({}));
    await api.get('/api/tasks');
    localStorage.setItem('token', 'jwt-9');
    await api.get('/api/tasks');
    expect(sent.map((request) => request.headers.get('authorization'))).toEqual([
      null,
      'Bearer jwt-9',
    ]);
  });

  it('puts params in the query string, leaves undefined ones out, and sends a body as JSON', async () => {
    const sent = answerWith(() => Response.json({ ok: true }));
    await api.get('/api/tasks', {
      params: { status: 'In Progress', limit: 100, cursor: undefined },
    });
    await api.put('/api/tasks/1', { title: 'T' });
    expect(new URL(sent[0]!.url).pathname).toBe('/api/tasks');
    expect(new URL(sent[0]!.url).search).toBe('?status=In+Progress&limit=100');
    expect(sent[1]!.method).toBe('PUT');
    expect(sent[1]!.headers.get('content-type')).toBe('application/json');
    expect(await sent[1]!.text()).toBe('{"title":"T"}');
  });

  it('answers data, status and the headers by lower-case name', async () => {
    answerWith(() => Response.json([{ _id: 'u1' }], { headers: { 'X-Next-Cursor': 'c2' } }));
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

  it('ends the session on a 401, except from the sign-in, sign-up and session calls', async () => {
    const ended = vi.fn();
    setUnauthorizedHandler(ended);
    stubApi(() => ({ status: 401, data: { message: 'Not authorized' } }));
    await api.post('/api/auth/login', {}).catch(() => undefined);
    await api.get('/api/auth/profile').catch(() => undefined);
    expect(ended).not.toHaveBeenCalled();
    await api.get('/api/tasks').catch(() => undefined);
    expect(ended).toHaveBeenCalledTimes(1);
  });

  it('sends a FormData body as multipart with its boundary, whatever Content-Type was asked', async () => {
    const sent = answerWith(() => Response.json({ imageUrl: '/uploads/a.png' }));
    const form = new FormData();
    form.append('image', new File(['x'], 'a.png', { type: 'image/png' }));
    await api.post('/api/auth/upload-image', form, {
      headers: { 'Content-Type': 'multipart/form-data' },
    });
    expect(sent[0]!.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
  });
});
