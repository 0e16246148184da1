import { describe, expect, it } from 'vitest';
import { setupE2E } from './support/e2e.js';
import { expectVisible } from './support/ui.js';

/** The dashboard's figures open the task list that shows what they count. */
const e2e = setupE2E();

describe('dashboard figures open the matching list', () => {
  it('a count, a donut slice and a priority bar each open the filtered task list', async () => {
    const admin = await e2e.api.registerAdmin('Dora Dashboard');
    const member = await e2e.api.registerMember('Lee Linked');
    await e2e.api.createTask(admin.token, {
      title: 'Only pending one',
      assignedTo: [member.user._id],
      priority: 'High',
    });
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/dashboard');

    await page.getByRole('link', { name: /^Pending Tasks: \d+$/ }).click();
    await page.waitForURL((url) => url.pathname === '/admin/tasks');
    expect(new URL(page.url()).searchParams.get('status')).toBe('Pending');

    // The whole card opens it, not only its number: a click on its label.
    await page.goBack();
    // (The card's link lies over the label: a click where the label is shown.)
    const label = await page.locator('dt', { hasText: 'Completed Tasks' }).boundingBox();
    expect(label).not.toBeNull();
    await page.mouse.click(label!.x + label!.width / 2, label!.y + label!.height / 2);
    await page.waitForURL((url) => url.pathname === '/admin/tasks');
    expect(new URL(page.url()).searchParams.get('status')).toBe('Completed');

    // A Recent Tasks row opens its task from any of its cells.
    await page.goBack();
    const row = page.getByRole('row').filter({ hasText: 'Only pending one' });
    await row.getByText('High Priority').click();
    await page.waitForURL((url) => /^\/admin\/tasks\/[^/]+$/.test(url.pathname));
    await expectVisible(page.getByRole('heading', { name: 'Only pending one' }), 'the task page');

    await page.goBack();
    const slice = page.locator('.recharts-pie-sector').first();
    await expectVisible(slice, 'a donut slice');
    // The slice is a ring: click on the ring itself, near its top, not in the hole.
    const ring = await slice.boundingBox();
    await slice.click({ position: { x: (ring?.width ?? 0) / 2, y: 6 } });
    await page.waitForURL((url) => url.pathname === '/admin/tasks');
    expect(new URL(page.url()).searchParams.get('status')).toBe('Pending');

    await page.goBack();
    const bar = page.locator('.recharts-bar-rectangle').last();
    await expectVisible(bar, 'a priority bar');
    await bar.click();
    await page.waitForURL((url) => url.pathname === '/admin/tasks');
    expect(new URL(page.url()).searchParams.get('priority')).toBe('High');
  });
});
