import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { setupE2E } from './support/e2e.js';
import { liveStreamOpened } from './support/live-stream.js';
import { expectPath, expectToast, expectVisible } from './support/ui.js';

/**
 * The bell (issue 17): the unread count in the top bar, moved live; the panel lists the
 * notifications, opens their task and marks them read. The profile page's e-mail choices and
 * calendar link.
 */
const e2e = setupE2E();

function bell(page: Page) {
  return page
    .getByRole('banner')
    .getByRole('button', { name: /^(Notifications|Benachrichtigungen)/ });
}

async function bellName(page: Page): Promise<string> {
  return (await bell(page).getAttribute('aria-label')) ?? '';
}

describe('the notification bell', () => {
  it('an admin assigns a task: the member’s count goes up live, and the notification opens it', async () => {
    const admin = await e2e.api.registerAdmin('Ada Admin');
    const member = await e2e.api.registerMember('Mia Member');
    const { page } = await e2e.openPage({ token: member.token });
    const live = liveStreamOpened(page);
    await page.goto('/user/dashboard');
    await live;
    expect(await bellName(page)).toBe('Notifications');

    const task = await e2e.api.createTask(admin.token, {
      title: 'Write report',
      assignedTo: [member.user._id],
    });
    await expect.poll(() => bellName(page), { timeout: 5_000 }).toBe('Notifications, 1 unread');
    expect(page.url()).toMatch(/\/user\/dashboard$/);

    await bell(page).click();
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    const item = panel.getByRole('button', { name: /Ada Admin assigned you to “Write report”/ });
    await expectVisible(item, 'the notification');
    expect(await item.innerText()).toContain('just now');
    await item.click();
    await expectPath(page, `/user/task-details/${task._id}`);
    await expect.poll(() => bellName(page)).toBe('Notifications');
    const unread = await e2e.api.request<{ count: number }>(
      'GET',
      '/api/notifications/unread-count',
      member.token,
    );
    expect(unread.count).toBe(0);
  });

  it('works by keyboard: opens into the panel, Escape closes it back onto the bell; all read, more on demand', async () => {
    const admin = await e2e.api.registerAdmin('Ada Admin');
    const member = await e2e.api.registerMember('Mia Member');
    for (let index = 1; index <= 22; index += 1) {
      await e2e.api.createTask(admin.token, {
        title: `Task number ${index}`,
        assignedTo: [member.user._id],
      });
    }
    const { page } = await e2e.openPage({ token: member.token });
    await page.goto('/user/tasks');
    await expect.poll(() => bellName(page)).toBe('Notifications, 22 unread');
    expect(await page.getByTestId('unread-badge').innerText()).toBe('22');

    await bell(page).focus();
    await page.keyboard.press('Enter');
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    await expectVisible(panel, 'the panel');
    expect(await panel.getByRole('heading').evaluate((el) => el === document.activeElement)).toBe(
      true,
    );
    // Newest first, a page at a time.
    const items = panel.getByRole('listitem');
    await expect.poll(() => items.count()).toBe(20);
    expect(await items.first().innerText()).toContain('Task number 22');
    await panel.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => items.count()).toBe(22);
    expect(await items.last().innerText()).toContain('Task number 1”');

    await page.keyboard.press('Escape');
    await expect.poll(() => panel.count()).toBe(0);
    expect(await bell(page).evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await bell(page).getAttribute('aria-expanded')).toBe('false');

    await page.keyboard.press('Enter');
    await panel.getByRole('button', { name: 'Mark all as read' }).click();
    await expect.poll(() => bellName(page)).toBe('Notifications');
    expect(await page.getByTestId('unread-badge').count()).toBe(0);
    await panel.getByRole('checkbox', { name: 'Unread only' }).check();
    await expectVisible(panel.getByText('Nothing unread.'), 'the empty unread list');
    // A click elsewhere closes it too.
    await page.getByRole('main').click({ position: { x: 5, y: 5 } });
    await expect.poll(() => panel.count()).toBe(0);
  });

  it('speaks German, and an admin’s notification opens the admin task page', async () => {
    // The account speaks German: a signed-in person's app follows the account's language.
    const admin = await e2e.api.registerAdmin('Ada Admin', undefined, { language: 'de' });
    const other = await e2e.api.registerAdmin('Olaf Admin');
    const task = await e2e.api.createTask(other.token, {
      title: 'Bericht schreiben',
      assignedTo: [admin.user._id],
    });
    const { page } = await e2e.openPage({ token: admin.token });
    await page.addInitScript(() => localStorage.setItem('language', 'de'));
    await page.goto('/admin/dashboard');
    await expect.poll(() => bellName(page)).toBe('Benachrichtigungen, 1 ungelesen');
    await bell(page).click();
    const panel = page.getByRole('dialog', { name: 'Benachrichtigungen' });
    await panel
      .getByRole('button', { name: /Olaf Admin hat dir „Bericht schreiben“ zugewiesen/ })
      .click();
    await expectPath(page, `/admin/tasks/${task._id}`);
  });
});

describe('the profile page', () => {
  it('e-mail choices per kind are saved, and say that this server sends no e-mail', async () => {
    const member = await e2e.api.registerMember('Mia Member');
    const { page } = await e2e.openPage({ token: member.token });
    await page.goto('/profile');
    const section = page.getByRole('region', { name: 'E-mail notifications' });
    await expectVisible(section.getByText(/This server does not send e-mail/), 'the note');
    const assigned = section.getByRole('combobox', { name: 'Assigned to a task' });
    expect(await assigned.inputValue()).toBe('instant');
    expect(await section.getByRole('combobox', { name: 'A task overdue' }).inputValue()).toBe(
      'digest',
    );
    await assigned.selectOption('never');
    await expectToast(page, 'E-mail preferences saved');
    const saved = await e2e.api.request<{ email: Record<string, string> }>(
      'GET',
      '/api/notifications/preferences',
      member.token,
    );
    expect(saved.email.assigned).toBe('never');
    expect(saved.email.mentioned).toBe('instant');
  });

  it('shows the calendar address to copy, makes a new one, and lets an admin take every task', async () => {
    const admin = await e2e.api.registerAdmin('Ada Admin');
    const member = await e2e.api.registerMember('Mia Member');
    await e2e.api.createTask(admin.token, {
      title: 'Someone else’s task',
      assignedTo: [member.user._id],
      dueDate: '2031-03-15',
    });
    const { page, context } = await e2e.openPage({ token: admin.token });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/profile');
    const section = page.getByRole('region', { name: 'Calendar' });
    const address = section.getByRole('textbox', { name: 'Calendar address' });
    await expectVisible(address, 'the address');
    const first = await address.inputValue();
    expect(first).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/calendar\/.+\.ics$/);

    await section.getByRole('button', { name: 'Copy' }).click();
    await expectToast(page, 'Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first);

    const feedText = async (url: string) => (await fetch(url)).text();
    expect(await feedText(first)).not.toContain('Someone else’s task');
    await section.getByRole('combobox', { name: 'Tasks in the feed' }).selectOption('all');
    await expectToast(page, 'Calendar feed updated');
    expect(await feedText(first)).toContain('Someone else’s task');

    await section.getByRole('button', { name: 'New address' }).click();
    await section.getByRole('button', { name: 'Yes, make a new address' }).click();
    await expectToast(page, 'New calendar address made');
    await expect.poll(() => address.inputValue()).not.toBe(first);
    expect((await fetch(first)).status).toBe(404);
    expect(await feedText(await address.inputValue())).toContain('BEGIN:VCALENDAR');
  });
});
