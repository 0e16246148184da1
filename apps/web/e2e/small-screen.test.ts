import { beforeAll, describe, expect, it } from 'vitest';
import type { SignedInUser } from './support/api.js';
import { setupE2E } from './support/e2e.js';
import { expectHidden, expectPath, expectVisible } from './support/ui.js';

/** On a phone (390 px) the side menu hides behind the hamburger button of the top bar. */
const e2e = setupE2E();

let admin: SignedInUser;
let member: SignedInUser;

beforeAll(async () => {
  admin = await e2e.api.registerAdmin('Ada Admin');
  member = await e2e.api.registerMember('Mia Member');
  await e2e.api.createTask(admin.token, {
    title: 'Small screen task',
    assignedTo: [member.user._id],
  });
});

const menuButton = /menu/i;

describe('on a 390 px wide screen', () => {
  it('an admin opens the menu with the hamburger button and navigates', async () => {
    const { page } = await e2e.openPage({ token: admin.token, width: 390, height: 844 });
    await page.goto('/admin/dashboard');
    const hamburger = page.getByRole('banner').getByRole('button', { name: menuButton });
    await expectVisible(hamburger, 'the hamburger button');
    await expectHidden(page.getByRole('link', { name: 'Manage Tasks' }), 'the side menu');
    // The top bar shows the logo.
    await expectVisible(page.getByRole('banner').getByText('Task Manager'), 'the logo');

    await hamburger.click();
    const menu = page.getByRole('navigation');
    await expectVisible(menu.getByText('Ada Admin'), 'the name in the opened menu');
    await menu.getByRole('link', { name: 'Manage Tasks' }).click();
    await expectPath(page, '/admin/tasks');
    await expectVisible(page.getByRole('heading', { name: 'My Task' }), 'the task list');
    await expectVisible(page.getByText('Small screen task'), 'the task card');
    // Choosing an entry closes the menu again.
    await expectHidden(page.getByRole('link', { name: 'Manage Tasks' }), 'the closed menu');

    await page.getByRole('banner').getByRole('button', { name: menuButton }).click();
    await page.getByRole('navigation').getByRole('link', { name: 'Team Member' }).click();
    await expectPath(page, '/admin/users');
    // Nothing is wider than the screen.
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
  });

  it('a member opens the menu and logs out from it', async () => {
    const { page } = await e2e.openPage({ token: member.token, width: 390, height: 844 });
    await page.goto('/user/dashboard');
    await expectHidden(page.getByRole('link', { name: 'My Tasks' }), 'the side menu');
    await page.getByRole('banner').getByRole('button', { name: menuButton }).click();
    await page.getByRole('navigation').getByRole('link', { name: 'My Tasks' }).click();
    await expectPath(page, '/user/tasks');
    await expectVisible(page.getByText('Small screen task'), 'the task card');
    await page.getByRole('banner').getByRole('button', { name: menuButton }).click();
    await page.getByRole('navigation').getByRole('button', { name: 'Logout' }).click();
    await expectPath(page, '/login');
  });

  it('the menu is always shown, without a hamburger, from 1080 px up', async () => {
    const { page } = await e2e.openPage({ token: admin.token, width: 1080, height: 800 });
    await page.goto('/admin/dashboard');
    await expectVisible(page.getByRole('link', { name: 'Manage Tasks' }), 'the side menu');
    await expectHidden(
      page.getByRole('banner').getByRole('button', { name: menuButton }),
      'the hamburger button',
    );
    await page.setViewportSize({ width: 1079, height: 800 });
    await expectHidden(page.getByRole('link', { name: 'Manage Tasks' }), 'the side menu');
    await expectVisible(
      page.getByRole('banner').getByRole('button', { name: menuButton }),
      'the hamburger button',
    );
  });

  it('the Recent Tasks table becomes a list on a phone, and a table again on a wider screen', async () => {
    const { page } = await e2e.openPage({ token: admin.token, width: 390, height: 844 });
    await page.goto('/admin/dashboard');
    const recent = page.getByRole('list', { name: 'Recent Tasks' });
    await expectVisible(recent.getByRole('link', { name: 'Small screen task' }), 'the list entry');
    await expectHidden(page.getByRole('table'), 'the table');
    // Nothing on the page scrolls sideways on the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    await page.setViewportSize({ width: 1080, height: 800 });
    await expectVisible(
      page.getByRole('table').getByRole('link', { name: 'Small screen task' }),
      'the table row',
    );
    await expectHidden(recent, 'the list');
  });

  it("the calendar lists the month's days with tasks instead of a grid to scroll sideways", async () => {
    // An overdue task: its entry carries a visually hidden "Overdue" for screen readers.
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await e2e.api.createTask(admin.token, {
      title: 'Late on a phone',
      assignedTo: [member.user._id],
      dueDate: `${yesterday}T00:00:00.000Z`,
    });
    const { page } = await e2e.openPage({ token: admin.token, width: 390, height: 844 });
    await page.goto(`/admin/calendar?month=${yesterday.slice(0, 7)}`);
    const agenda = page.getByRole('region', { name: 'Tasks due this month' });
    const entry = agenda.getByRole('link', { name: /Late on a phone/ });
    await expectVisible(entry, 'the entry in the list of days');
    // Under its day's heading, marked overdue; the grid is not shown at this width.
    await expectVisible(agenda.getByRole('heading', { level: 2 }).first(), "the day's heading");
    expect(await entry.getAttribute('data-due')).toBe('overdue');
    expect(await page.getByRole('region', { name: 'Month', exact: true }).count()).toBe(0);
    const box = await entry.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
  });
});
