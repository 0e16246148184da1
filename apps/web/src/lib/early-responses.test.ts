import { afterEach, describe, expect, it } from 'vitest';
import { fetchOrTakeEarly, takeEarlyResponse } from './early-responses';

const origin = window.location.origin;
const get = (path: string, token = 'tok', method = 'GET') =>
  new Request(new URL(path, origin), { method, headers: { Authorization: `Bearer ${token}` } });

function earlyAnswers(
  responses: Record<string, Promise<Response | null>>,
  startedAt = performance.now(),
) {
  window.__earlyRequests = { token: 'tok', startedAt, responses };
}

afterEach(() => {
  delete window.__earlyRequests;
});

describe('answers started before the app loaded', () => {
  it('hands an answer to the same request once, then leaves it to the network', async () => {
    const answer = new Response('{"role":"admin"}', { status: 200 });
    earlyAnswers({ '/api/auth/profile': Promise.resolve(answer) });
    expect(await takeEarlyResponse(get('/api/auth/profile'))).toBe(answer);
    expect(takeEarlyResponse(get('/api/auth/profile'))).toBeUndefined();
  });

  it('passes the answer through fetchOrTakeEarly, refusals included', async () => {
    earlyAnswers({ '/api/auth/profile': Promise.resolve(new Response('no', { status: 401 })) });
    const response = await fetchOrTakeEarly(get('/api/auth/profile'));
    expect(response.status).toBe(401);
    expect(await response.text()).toBe('no');
  });

  it('is not used for another token, method, query, path or origin', () => {
    const early = () => Promise.resolve(new Response('{}'));
    earlyAnswers({ '/api/auth/profile': early() });
    expect(takeEarlyResponse(get('/api/auth/profile', 'someone-else'))).toBeUndefined();
    earlyAnswers({ '/api/auth/profile': early() });
    expect(takeEarlyResponse(get('/api/auth/profile', 'tok', 'POST'))).toBeUndefined();
    expect(takeEarlyResponse(get('/api/auth/profile?x=1'))).toBeUndefined();
    expect(takeEarlyResponse(get('/api/tasks'))).toBeUndefined();
    expect(
      takeEarlyResponse(
        new Request('https://elsewhere.example/api/auth/profile', {
          headers: { Authorization: 'Bearer tok' },
        }),
      ),
    ).toBeUndefined();
  });

  it('is not used once stale, and a failed or inapplicable one means asking the network', async () => {
    earlyAnswers(
      { '/api/auth/profile': Promise.resolve(new Response('{}')) },
      performance.now() - 60_000,
    );
    expect(takeEarlyResponse(get('/api/auth/profile'))).toBeUndefined();
    earlyAnswers({
      '/api/auth/profile': Promise.reject(new TypeError('Failed to fetch')),
      '/api/tasks/dashboard-data': Promise.resolve(null),
    });
    expect(await takeEarlyResponse(get('/api/auth/profile'))).toBeNull();
    expect(await takeEarlyResponse(get('/api/tasks/dashboard-data'))).toBeNull();
  });

  it('does nothing when no early requests were started (signed out)', () => {
    expect(takeEarlyResponse(get('/api/auth/profile'))).toBeUndefined();
  });
});
