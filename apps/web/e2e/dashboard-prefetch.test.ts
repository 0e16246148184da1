import type { Page, Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SignedInUser } from './support/api.js';
import { setupE2E } from './support/e2e.js';
import { expectVisible, statCardValue } from './support/ui.js';

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
});
