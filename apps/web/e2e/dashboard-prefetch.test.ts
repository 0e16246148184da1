import type { Page, Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SignedInUser } from './support/api.js';
import { setupE2E } from './support/e2e.js';
import { expectPath, expectVisible, statCardValue } from './support/ui.js';

/**
 * The dashboard's data is asked for as soon as the session is known, not once the page's chunk
 * has loaded and rendered: held back, the page chunk must not hold back the data request, and the
 * page then uses that one request (same query key) rather than sending its own.
 */
const e2e = setupE2E();

let admin: SignedInUser;
let member: SignedInUser;

beforeAll(async () => {
  admin = await e2e.api.registerAdmin('Ada Admin');
  member = await e2e.api.registerMember('Mia Member');
  await e2e.api.createTask(admin.token, {
    title: 'Prefetched task',
    description: 'Counted on both dashboards',
    priority: 'High',
    dueDate: '2031-09-01',
    assignedTo: [member.user._id],
    todoChecklist: [{ text: 'Step 1' }],
  });
});

/** How long the page chunk is held at most, waiting for the data request. */
const HOLD_MS = 5_000;

/**
 * Opens `pagePath` with the page chunk (`chunkPrefix`-*.js) held until the data request at
 * `dataPath` has started (or HOLD_MS passed), and tells whether it started while held.
 */
async function openWithPageChunkHeld(
  page: Page,
  pagePath: string,
  chunkPrefix: string,
  dataPath: string,
) {
  const dataRequests: Request[] = [];
  let dataRequested!: () => void;
  const dataStarted = new Promise<void>((resolve) => (dataRequested = resolve));
  page.on('request', (request) => {
    if (new URL(request.url()).pathname !== dataPath) return;
    dataRequests.push(request);
    dataRequested();
  });
  let startedWhileHeld: boolean | undefined;
  await page.route(
    (url) => url.pathname.startsWith(`/assets/${chunkPrefix}-`) && url.pathname.endsWith('.js'),
    async (route) => {
      const held = await Promise.race([
        dataStarted.then(() => true),
        new Promise<false>((resolve) => setTimeout(() => resolve(false), HOLD_MS)),
      ]);
      startedWhileHeld ??= held;
      await route.continue();
    },
  );
  await page.goto(pagePath);
  return { dataRequests, startedWhileHeld: () => startedWhileHeld };
}

describe('dashboard data prefetch', () => {
  it('asks for the admin dashboard data before the page chunk has arrived, once', async () => {
    const { page } = await e2e.openPage({ token: admin.token });
    const opened = await openWithPageChunkHeld(
      page,
      '/admin/dashboard',
      'admin-dashboard-page',
      '/api/tasks/dashboard-data',
    );
    await expectVisible(page.locator('path.recharts-sector').first(), 'the status donut');
    expect(await statCardValue(page, 'Total Tasks')).toBe('1');
    expect(opened.startedWhileHeld(), 'data requested while the page chunk was held').toBe(true);
    expect(opened.dataRequests).toHaveLength(1);
  });

  it('asks for the member dashboard data before the page chunk has arrived, once', async () => {
    const { page } = await e2e.openPage({ token: member.token });
    const opened = await openWithPageChunkHeld(
      page,
      '/user/dashboard',
      'user-dashboard-page',
      '/api/tasks/user-dashboard-data',
    );
    await expectVisible(page.locator('path.recharts-sector').first(), 'the status donut');
    expect(await statCardValue(page, 'Total Tasks')).toBe('1');
    expect(opened.startedWhileHeld(), 'data requested while the page chunk was held').toBe(true);
    expect(opened.dataRequests).toHaveLength(1);
  });

  it('opened again on the dashboard, asks for its data while the session check is still out', async () => {
    const { page } = await e2e.openPage({ token: admin.token });
    // A first visit: the session check answers, and the browser remembers whose session it is.
    await page.goto('/admin/dashboard');
    await expectVisible(page.locator('path.recharts-sector').first(), 'the status donut');
    let dataRequested!: () => void;
    const dataStarted = new Promise<void>((resolve) => (dataRequested = resolve));
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/tasks/dashboard-data') dataRequested();
    });
    let startedWhileHeld: boolean | undefined;
    await page.route('**/api/auth/profile', async (route) => {
      startedWhileHeld ??= await Promise.race([
        dataStarted.then(() => true),
        new Promise<false>((resolve) => setTimeout(() => resolve(false), HOLD_MS)),
      ]);
      await route.continue();
    });
    await page.reload();
    await expectVisible(page.locator('path.recharts-sector').first(), 'the status donut');
    expect(startedWhileHeld, 'data requested while the session check was held').toBe(true);
  });

  it('a member who opens the admin dashboard is sent to their own, with no refused request', async () => {
    const { page } = await e2e.openPage({ token: member.token });
    await page.goto('/user/dashboard');
    await expectVisible(page.locator('path.recharts-sector').first(), 'the status donut');
    const refused: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) refused.push(`${response.status()} ${response.url()}`);
    });
    await page.goto('/admin/dashboard');
    await expectPath(page, '/user/dashboard');
    await expectVisible(page.locator('path.recharts-sector').first(), 'the status donut');
    expect(await statCardValue(page, 'Total Tasks')).toBe('1');
    expect(refused).toEqual([]);
  });

  it('a session ended since the last visit goes to the sign-in page, saying so once', async () => {
    const session = await e2e.openPage({ token: 'a-token-the-server-never-issued' });
    // The last visit was an admin's: the dashboard's data goes out with the session check.
    await session.page.addInitScript(() => localStorage.setItem('role', 'admin'));
    session.expectFailedRequest({ path: '/api/auth/profile', status: 401 });
    session.expectFailedRequest({ path: '/api/tasks/dashboard-data', status: 401 });
    await session.page.goto('/admin/dashboard');
    await expectPath(session.page, '/login');
    await expectVisible(
      session.page.getByText('Session expired, please log in again'),
      'the expired session notice',
    );
    expect(await session.page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });
});
