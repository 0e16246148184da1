import type { Page, Route } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SignedInUser } from './support/api.js';
import { setupE2E } from './support/e2e.js';
import { expectHidden, expectVisible } from './support/ui.js';

/**
 * No blank "Loading..." screen: while the session is checked, a page's code loads or its data
 * comes, the signed-in frame (top bar, menu) is drawn and the page shows a skeleton of its shape.
 */
const e2e = setupE2E();

let admin: SignedInUser;

beforeAll(async () => {
  admin = await e2e.api.registerAdmin('Ada Admin');
});

/**
 * Holds back every answer for `urlPath` until the returned release() is called, so the test can
 * look at the page while it waits.
 */
async function holdBack(page: Page, urlPath: string) {
  const held: Route[] = [];
  let released = false;
  await page.route(
    (url) => url.pathname === urlPath,
    async (route) => {
      if (released) return route.continue();
      held.push(route);
    },
  );
  return async () => {
    released = true;
    await Promise.all(held.splice(0).map((route) => route.continue()));
  };
}

describe('no blank screens', () => {
  it('while the session is checked, the frame and the page skeleton are drawn', async () => {
    const { page } = await e2e.openPage({ token: admin.token });
    const release = await holdBack(page, '/api/auth/profile');
    await page.goto('/admin/tasks');
    await expectVisible(page.getByRole('banner').getByText('Task Manager'), 'the top bar');
    await expectVisible(page.getByRole('main'), 'the main area');
    expect(await page.getByRole('status').first().textContent()).toContain('Loading...');
    await release();
    await expectVisible(page.getByRole('navigation', { name: 'Main' }), 'the real menu');
  });

  it("while the dashboard's data loads, the frame is drawn and the dashboard shows its skeleton", async () => {
    const { page } = await e2e.openPage({ token: admin.token });
    const release = await holdBack(page, '/api/tasks/dashboard-data');
    await page.goto('/admin/dashboard');
    await expectVisible(page.getByRole('navigation', { name: 'Main' }), 'the menu');
    await expectVisible(page.getByRole('status', { name: 'Loading dashboard' }), 'its skeleton');
    await release();
    await expectHidden(page.getByRole('status', { name: 'Loading dashboard' }), 'the skeleton');
    await expectVisible(page.getByRole('figure', { name: 'Task Status' }), 'the charts');
  });

  it("moving to a page whose code has not loaded keeps the frame: only the page's part waits", async () => {
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/dashboard');
    await expectVisible(page.getByRole('navigation', { name: 'Main' }), 'the menu');
    // The Team Member page's chunk is held back: the menu stays on screen meanwhile.
    let releaseChunk!: () => void;
    const chunkMayGo = new Promise<void>((resolve) => (releaseChunk = resolve));
    await page.route(/\/assets\/team-members-page-[^/]+\.js$/, async (route) => {
      await chunkMayGo;
      await route.continue();
    });
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Team Member' })
      .click();
    await page.waitForTimeout(300);
    await expectVisible(page.getByRole('navigation', { name: 'Main' }), 'the menu while loading');
    await expectVisible(page.getByRole('banner').getByText('Task Manager'), 'the top bar');
    releaseChunk();
    await expectVisible(
      page.getByRole('heading', { name: 'Team Members' }),
      'the Team Member page',
    );
  });
});
