import { describe, expect, it } from 'vitest';
import { uniqueEmail, TEST_PASSWORD } from './support/api.js';
import { setupE2E } from './support/e2e.js';
import {
  expectPath,
  expectVisible,
  greetingFor,
  shownDate,
  sideMenu,
  statCardValue,
  TINY_PNG,
} from './support/ui.js';

/** An admin's first visit: signs up with the invite token and a photo, and sees the dashboard. */
const e2e = setupE2E();

describe('an admin signing up', () => {
  it('is told what is missing before anything is sent', async () => {
    const { page } = await e2e.openPage();
    await page.goto('/signup');
    await expectVisible(page.getByRole('heading', { name: 'Create an Account' }), 'the heading');
    await page.getByRole('button', { name: 'SIGN UP' }).click();
    await expectVisible(page.getByText('Please enter a valid full name.'), 'the name error');
    await page.getByLabel('Full Name').fill('Ada Admin');
    await page.getByRole('button', { name: 'SIGN UP' }).click();
    await expectVisible(page.getByText('Please enter a valid email address.'), 'the e-mail error');
    await page.getByLabel('Email Address').fill('not-an-email');
    await page.getByRole('button', { name: 'SIGN UP' }).click();
    await expectVisible(page.getByText('Please enter a valid email address.'), 'the e-mail error');
    await page.getByLabel('Email Address').fill(uniqueEmail('ada'));
    await page.getByRole('button', { name: 'SIGN UP' }).click();
    await expectVisible(page.getByText('Please enter the password'), 'the password error');
    await expectPath(page, '/signup');

    // The photo picker takes image files only: a text file is refused.
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByRole('button', { name: /upload.*photo/i }).click(),
    ]);
    expect(await chooser.element().getAttribute('accept')).toMatch(/image/);
    await chooser.setFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('hi'),
    });
    await expectVisible(page.getByRole('button', { name: /upload.*photo/i }), 'no photo chosen');
    expect(await page.getByRole('button', { name: /remove.*photo/i }).count()).toBe(0);

    // The sign-in link leads back to /login.
    await page.getByRole('link', { name: /log ?in/i }).click();
    await expectPath(page, '/login');
  });

  it('signs up with a photo and the invite token and lands on the admin dashboard', async () => {
    const { page } = await e2e.openPage();
    await page.goto('/login');
    await page.getByRole('link', { name: /sign ?up/i }).click();
    await expectPath(page, '/signup');

    // The round photo picker: choose a file, remove it, choose again.
    const pickPhoto = async () => {
      const [chooser] = await Promise.all([
        page.waitForEvent('filechooser'),
        page.getByRole('button', { name: /upload.*photo/i }).click(),
      ]);
      await chooser.setFiles({ name: 'ada.png', mimeType: 'image/png', buffer: TINY_PNG });
    };
    await pickPhoto();
    await page.getByRole('button', { name: /remove.*photo/i }).click();
    await expectVisible(page.getByRole('button', { name: /upload.*photo/i }), 'the picker again');
    await pickPhoto();
    await expectVisible(page.getByRole('button', { name: /remove.*photo/i }), 'a chosen photo');

    const email = uniqueEmail('ada');
    await page.getByLabel('Full Name').fill('Ada Admin');
    await page.getByLabel('Email Address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
    const invite = page.getByLabel('Admin Invite Token');
    expect(await invite.getAttribute('placeholder')).toBe('6 Digit Code');
    await invite.fill(e2e.server.inviteToken);
    const hourBefore = new Date().getUTCHours();
    await page.getByRole('button', { name: 'SIGN UP' }).click();

    await expectPath(page, '/admin/dashboard');
    const hourAfter = new Date().getUTCHours();
    // The page runs in UTC; the hour may tick over while the test runs.
    const greetings = [...new Set([greetingFor(hourBefore), greetingFor(hourAfter)])];
    const main = page.getByRole('main');
    await expectVisible(
      main.getByText(new RegExp(`(${greetings.join('|')}).*Ada Admin`)),
      `the greeting (${greetings.join(' or ')}) with the name`,
    );
    await expectVisible(main.getByText(shownDate(new Date())), "today's date");
    for (const card of ['Total Tasks', 'Pending Tasks', 'In Progress Tasks', 'Completed Tasks']) {
      await expectVisible(main.getByText(card, { exact: true }), `the ${card} card`);
    }
    await expectVisible(main.getByText('Recent Tasks'), 'the Recent Tasks table');
    await expectVisible(main.getByText('Task Distribution'), 'the priority chart');

    // The menu shows the photo, the name, the e-mail and the Admin badge.
    const menu = sideMenu(page);
    await expectVisible(menu.getByText('Ada Admin'), 'the name in the menu');
    await expectVisible(menu.getByText(email), 'the e-mail in the menu');
    await expectVisible(menu.getByText('Admin', { exact: true }), 'the Admin badge');
    // This server's image, by its relative path, and the browser loaded it (CSP img-src 'self').
    const photo = menu.getByRole('img', { name: 'Ada Admin' });
    expect(await photo.getAttribute('src')).toMatch(/^\/api\/images\/[0-9a-f-]{36}$/);
    const width = await photo.evaluate((img: HTMLImageElement) =>
      img.decode().then(() => img.naturalWidth),
    );
    expect(width).toBeGreaterThan(0);
    for (const entry of ['Dashboard', 'Manage Tasks', 'Create Task', 'Team Member']) {
      await expectVisible(menu.getByRole('link', { name: entry }), `the ${entry} entry`);
    }
    expect(await menu.getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current')).toBe(
      'page',
    );

    // The server made an admin with that photo.
    const token = await page.evaluate(() => localStorage.getItem('token'));
    const profile = await e2e.api.request<{ role: string; profileImageUrl: string | null }>(
      'GET',
      '/api/auth/profile',
      token ?? undefined,
    );
    expect(profile.role).toBe('admin');
    expect(profile.profileImageUrl).toMatch(/^\/api\/images\/[0-9a-f-]{36}$/);
  });

  it("is shown the server's message for a wrong invite token or a taken e-mail", async () => {
    const taken = await e2e.api.registerMember('Tess Taken');
    const session = await e2e.openPage();
    const { page } = session;
    // Both refusals are provoked on purpose: 400 for the token, 409 for the e-mail.
    session.expectFailedRequest({ path: '/api/auth/register', status: 400 });
    session.expectFailedRequest({ path: '/api/auth/register', status: 409 });
    await page.goto('/signup');
    await page.getByLabel('Full Name').fill('Eve Guess');
    await page.getByLabel('Email Address').fill(uniqueEmail('eve'));
    await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
    const wrongToken = e2e.server.inviteToken === '000000' ? '111111' : '000000';
    await page.getByLabel('Admin Invite Token').fill(wrongToken);
    await page.getByRole('button', { name: 'SIGN UP' }).click();
    await expectVisible(
      page.getByRole('alert').filter({ hasText: 'Invalid admin invite token' }),
      'the invite token error',
    );
    await expectPath(page, '/signup');

    await page.getByLabel('Admin Invite Token').fill('');
    await page.getByLabel('Email Address').fill(taken.user.email);
    await page.getByRole('button', { name: 'SIGN UP' }).click();
    await expectVisible(
      page.getByRole('alert').filter({ hasText: 'User already exists' }),
      'the taken e-mail error',
    );
    await expectPath(page, '/signup');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });

  it('without the invite token makes a member, who lands on the member dashboard', async () => {
    const { page } = await e2e.openPage();
    await page.goto('/signup');
    const email = uniqueEmail('sam');
    await page.getByLabel('Full Name').fill('Sam Signup');
    await page.getByLabel('Email Address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'SIGN UP' }).click();
    await expectPath(page, '/user/dashboard');
    const menu = sideMenu(page);
    await expectVisible(menu.getByText('Sam Signup'), 'the name in the menu');
    expect(await menu.getByText('Admin', { exact: true }).count()).toBe(0);
    await expectVisible(menu.getByRole('link', { name: 'My Tasks' }), 'the member menu');
  });

  it('shows the task counts of the server on the dashboard cards and See All goes to the tasks', async () => {
    const admin = await e2e.api.registerAdmin('Dana Dashboard');
    const member = await e2e.api.registerMember('Mo Member');
    const tasks = [];
    for (const title of ['Alpha task', 'Beta task', 'Gamma task']) {
      tasks.push(await e2e.api.createTask(admin.token, { title, assignedTo: [member.user._id] }));
    }
    // One In Progress (1 of 2 ticked), one Completed, one Pending.
    const twoSteps = await e2e.api.request<{ task: { _id: string } }>(
      'PUT',
      `/api/tasks/${tasks[0]!._id}`,
      admin.token,
      { todoChecklist: [{ text: 'One' }, { text: 'Two' }] },
    );
    await e2e.api.tickFirst(member.token, await e2e.api.getTask(admin.token, twoSteps.task._id), 1);
    await e2e.api.tickFirst(member.token, tasks[1]!, 1);
    const { statusSummary } = await e2e.api.listTasks(admin.token);

    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/dashboard');
    const main = page.getByRole('main');
    const cards: [string, number][] = [
      ['Total Tasks', statusSummary.all!],
      ['Pending Tasks', statusSummary.pendingTasks!],
      ['In Progress Tasks', statusSummary.inProgressTasks!],
      ['Completed Tasks', statusSummary.completedTasks!],
    ];
    expect(cards.map(([, count]) => count)).toEqual([3, 1, 1, 1]);
    for (const [label, count] of cards) {
      await expect
        .poll(() => statCardValue(page, label), { message: `the ${label} card` })
        .toBe(String(count));
    }
    // Recent Tasks: name, status, priority and the creation date as 'Do MMM YYYY'.
    for (const task of tasks) {
      const row = main
        .getByRole('row')
        .filter({ has: page.getByRole('cell', { name: task.title }) });
      await expectVisible(row, `${task.title} in Recent Tasks`);
      const saved = await e2e.api.getTask(admin.token, task._id);
      expect((await row.getByRole('cell').allInnerTexts()).map((cell) => cell.trim())).toEqual([
        saved.title,
        saved.status,
        expect.stringContaining(saved.priority),
        shownDate(saved.createdAt),
      ]);
    }
    await main.getByRole('button', { name: /see all/i }).click();
    await expectPath(page, '/admin/tasks');
  });
});
