/**
 * Runs before the app's code has loaded: starts the requests the first screen will make, so that
 * their answers are back by the time React asks for them (src/lib/early-responses.ts hands them
 * over). On a first visit the main chunk takes a few hundred milliseconds to arrive and run; the
 * session check, then the dashboard's data, used to wait for it.
 *
 * Its own entry in index.html (`async`), so it imports nothing: any import would become a chunk
 * to wait for. The strings below are the app's (TOKEN_KEY in lib/api-client.ts, the dashboards'
 * routes in config/paths.ts and their API calls); e2e/dashboard-prefetch.test.ts fails if they
 * drift apart, since each request must then be made twice.
 */
import type { EarlyRequests } from '../lib/early-responses';

const TOKEN_KEY = 'token';
const PROFILE_URL = '/api/auth/profile';
/** A signed-in person's own dashboard, by route: who may open it and the data it shows. */
const DASHBOARDS: Record<string, { role: string; url: string }> = {
  '/admin/dashboard': { role: 'admin', url: '/api/tasks/dashboard-data' },
  '/user/dashboard': { role: 'member', url: '/api/tasks/user-dashboard-data' },
};

function startEarlyRequests(): EarlyRequests | undefined {
  let token: string | null = null;
  try {
    token = localStorage.getItem(TOKEN_KEY);
  } catch {
    // Storage unavailable (private mode): the app signs in as usual.
  }
  if (!token) return undefined;
  const init = { headers: { Authorization: `Bearer ${token}` } };
  const profile = fetch(PROFILE_URL, init);
  const responses: EarlyRequests['responses'] = { [PROFILE_URL]: profile };
  const dashboard = DASHBOARDS[window.location.pathname];
  if (dashboard) {
    // Only once the profile says this person may see it: nobody asks for data they would be
    // refused, and the route guard sends them elsewhere anyway.
    responses[dashboard.url] = profile
      .then((answer) => (answer.ok ? answer.clone().json() : null))
      .then((user: { role?: string } | null) =>
        user?.role === dashboard.role ? fetch(dashboard.url, init) : null,
      );
  }
  return { token, startedAt: performance.now(), responses };
}

window.__earlyRequests = startEarlyRequests();
