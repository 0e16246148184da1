import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiTask, SignedInUser } from './support/api.js';
import { expectNoSeriousA11yViolations } from './support/axe.js';
import { setupE2E } from './support/e2e.js';
import { screenshot, screenshotAtBothWidths, settle } from './support/screenshots.js';
import { expectPath, expectVisible } from './support/ui.js';

/**
 * Every page, with data on it, has no serious or critical axe violation (contrast included) in
 * the light theme and in the dark one, at 1280 px and at a phone's 390 × 844, and is
 * photographed in each theme at 1280 and 390 px into e2e/screenshots/ for people to look at
 * (not in CI, which sets E2E_PHOTOS=0).
 */
const e2e = setupE2E();

let admin: SignedInUser;
let member: SignedInUser;
let task: ApiTask;

beforeAll(async () => {
  admin = await e2e.api.registerAdmin('Ada Admin');
  member = await e2e.api.registerMember('Mia Member');
  const other = await e2e.api.registerMember('Max Member');
  task = await e2e.api.createTask(admin.token, {
    title: 'Write the onboarding guide',
    description: 'A guide for the first week: accounts, tools and people to meet.',
    priority: 'High',
    dueDate: '2031-04-30',
    assignedTo: [member.user._id, other.user._id],
    todoChecklist: [{ text: 'Outline' }, { text: 'First draft' }, { text: 'Review' }],
    attachments: ['example.com/onboarding', 'https://docs.example.org/tools'],
  });
  await e2e.api.tickFirst(member.token, task, 1);
  const done = await e2e.api.createTask(admin.token, {
    title: 'Order the laptops',
    priority: 'Medium',
    assignedTo: [member.user._id],
  });
  await e2e.api.tickFirst(member.token, done, 1);
  await e2e.api.createTask(admin.token, {
    title: 'Book the team lunch',
    assignedTo: [other.user._id],
  });
});

/**
 * The dashboards' charts are drawn without an entry animation, but only once their container has
 * a size: after a load or a resize, wait until every chart's drawing spans its figure's width.
 */
async function waitForCharts(page: Page) {
  await expectVisible(page.getByRole('figure', { name: 'Task Distribution' }), 'the charts');
  await page.waitForFunction(
    () => {
      const figures = [...document.querySelectorAll('figure')].filter((figure) =>
        figure.querySelector('.recharts-responsive-container'),
      );
      return (
        figures.length > 0 &&
        figures.every((figure) => {
          const box = figure.querySelector('.recharts-responsive-container')!;
          const svg = box.querySelector('.recharts-wrapper > svg.recharts-surface');
          return (
            svg !== null &&
            Math.abs(svg.getBoundingClientRect().width - box.getBoundingClientRect().width) < 2 &&
            svg.querySelector('path') !== null
          );
        })
      );
    },
    undefined,
    { timeout: 10_000 },
  );
}

/**
 * The system's colour scheme as the browser reports it: the app follows it (no theme chosen),
 * so the page turns dark or light in place.
 */
async function emulateColourScheme(page: Page, scheme: 'light' | 'dark') {
  await page.emulateMedia({ colorScheme: scheme });
  await page.waitForFunction(
    (wanted) => document.documentElement.dataset.theme === wanted,
    scheme,
    { timeout: 5_000 },
  );
}

/** A phone's viewport: the width the small-screen layout is designed for. */
const PHONE = { width: 390, height: 844 } as const;

/** Scans the page at a phone's size, then puts the viewport back as it was. */
async function scanAtPhoneSize(page: Page, label: string, { charts = false } = {}) {
  const original = page.viewportSize() ?? { width: 1280, height: 900 };
  await page.setViewportSize(PHONE);
  await settle(page);
  if (charts) await waitForCharts(page);
  await expectNoSeriousA11yViolations(page, `${label} at ${PHONE.width} px`);
  await page.setViewportSize(original);
  await settle(page);
  if (charts) await waitForCharts(page);
}

/**
 * Scans the page as it is in each theme, at the laptop's width and at a phone's, and
 * photographs it at both widths in each.
 */
async function check(page: Page, name: string, { charts = false } = {}) {
  for (const scheme of ['light', 'dark'] as const) {
    await emulateColourScheme(page, scheme);
    const label = scheme === 'light' ? name : `${name}-dark`;
    await expectNoSeriousA11yViolations(page, label);
    await scanAtPhoneSize(page, label, { charts });
    await screenshotAtBothWidths(page, label, { beforeEach: charts ? waitForCharts : undefined });
  }
  await emulateColourScheme(page, 'light');
}

describe('the scan itself', () => {
  it('finds serious violations: a button without a name, and faint text', async () => {
    const { page } = await e2e.openPage();
    await page.goto('/login');
    await expectVisible(page.getByRole('heading', { name: 'Welcome Back' }), 'the login form');
    await page.evaluate(() => {
      const main = document.querySelector('main') ?? document.body;
      main.append(document.createElement('button'));
      // Styled through the CSSOM: the app's CSP refuses style attributes.
      const faint = document.createElement('p');
      faint.textContent = 'Faint words';
      faint.style.color = '#777';
      faint.style.background = '#888';
      main.append(faint);
    });
    const failure = await expectNoSeriousA11yViolations(page, 'a broken page').then(
      () => 'no violation reported',
      (error: Error) => error.message,
    );
    expect(failure).toMatch(/button-name/);
    expect(failure).toMatch(/color-contrast/);
  });
});

describe('every page is accessible', () => {
  it('login', async () => {
    const { page } = await e2e.openPage();
    await page.goto('/login');
    await expectVisible(page.getByRole('heading', { name: 'Welcome Back' }), 'the login form');
    await check(page, 'login');
  });

  it('login with an error under the form', async () => {
    const { page } = await e2e.openPage();
    await page.goto('/login');
    await page.getByRole('button', { name: 'LOGIN' }).click();
    await expectVisible(page.getByText('Please enter a valid email address.'), 'the error');
    await check(page, 'login-error');
  });

  it('sign-up', async () => {
    const { page } = await e2e.openPage();
    await page.goto('/signup');
    await expectVisible(page.getByRole('heading', { name: 'Create an Account' }), 'the form');
    await check(page, 'signup');
  });

  it('the 404 page', async () => {
    const { page } = await e2e.openPage();
    await page.goto('/no-such-page');
    await expectVisible(page.getByRole('heading', { name: /not found/i }), 'the 404 page');
    await check(page, 'not-found');
  });

  it('admin dashboard', async () => {
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/dashboard');
    await expectVisible(page.getByRole('cell', { name: task.title }), 'the recent tasks');
    await waitForCharts(page);
    await check(page, 'admin-dashboard', { charts: true });
  });

  it('Manage Tasks', async () => {
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/tasks');
    await expectVisible(page.getByRole('link', { name: task.title }), 'the task cards');
    await check(page, 'admin-tasks');
  });

  it('Create Task, with the user picker open', async () => {
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/create-task');
    await expectVisible(page.getByRole('button', { name: 'CREATE TASK' }), 'the form');
    await page.getByRole('button', { name: 'CREATE TASK' }).click();
    await expectVisible(page.getByText('Title is required.'), 'the validation message');
    await check(page, 'admin-create-task');
    await page.getByRole('button', { name: 'Add Members' }).click();
    await expectVisible(
      page.getByRole('dialog').getByRole('checkbox', { name: 'Mia Member' }),
      'the user picker',
    );
    await check(page, 'admin-create-task-user-picker');
  });

  it('Update Task, with the delete confirmation open', async () => {
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/tasks');
    await page.getByRole('link', { name: task.title }).click();
    await expectPath(page, `/admin/tasks/${task._id}`);
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await expectPath(page, `/admin/tasks/${task._id}/edit`);
    await expectVisible(page.getByRole('button', { name: 'UPDATE TASK' }), 'the edit form');
    // The items are in boxes where they can be renamed: the second holds its text.
    await expectVisible(page.getByRole('button', { name: 'Move “First draft”' }), 'the checklist');
    expect(await page.getByRole('textbox', { name: 'Checklist item 2' }).inputValue()).toBe(
      'First draft',
    );
    await check(page, 'admin-update-task');
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await expectVisible(
      page.getByRole('dialog').getByText('Are you sure want to delete this task?'),
      'the confirmation',
    );
    await check(page, 'admin-delete-task-confirmation');
  });

  it('Team Member', async () => {
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/users');
    await expectVisible(page.getByText(member.user.email), 'the member cards');
    await check(page, 'admin-users');
  });

  it('member dashboard', async () => {
    const { page } = await e2e.openPage({ token: member.token });
    await page.goto('/user/dashboard');
    await expectVisible(page.getByRole('cell', { name: task.title }), 'the recent tasks');
    await waitForCharts(page);
    await check(page, 'user-dashboard', { charts: true });
  });

  it('My Tasks', async () => {
    const { page } = await e2e.openPage({ token: member.token });
    await page.goto('/user/tasks');
    await expectVisible(page.getByRole('link', { name: task.title }), 'the task cards');
    await check(page, 'user-tasks');
  });

  it('task details', async () => {
    const { page } = await e2e.openPage({ token: member.token });
    await page.goto(`/user/task-details/${task._id}`);
    await expectVisible(page.getByRole('checkbox', { name: 'First draft' }), 'the checklist');
    await check(page, 'user-task-details');
  });

  it('the admin task page', async () => {
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto(`/admin/tasks/${task._id}`);
    await expectVisible(page.getByRole('link', { name: 'Edit' }), 'the task page');
    await check(page, 'admin-task-page');
  });

  it('Manage Tasks, filtered', async () => {
    await e2e.api.request('POST', '/api/labels', admin.token, {
      name: 'Onboarding',
      color: '#0f766e',
    });
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/tasks?q=guide&priority=High&due=later&sort=dueDate');
    await expectVisible(page.getByRole('link', { name: task.title }), 'the filtered list');
    await expectVisible(page.getByRole('group', { name: 'Labels' }), 'the label filter');
    await check(page, 'admin-tasks-filtered');
  });

  it('labels', async () => {
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/labels');
    await expectVisible(page.getByRole('button', { name: 'Add label' }), 'the label manager');
    await check(page, 'admin-labels');
  });

  it('board (admin and member)', async () => {
    for (const [token, path] of [
      [admin.token, '/admin/board'],
      [member.token, '/user/board'],
    ] as const) {
      const { page } = await e2e.openPage({ token });
      await page.goto(path);
      await expectVisible(page.getByRole('link', { name: task.title }), 'the board cards');
      await check(page, path.slice(1).replace('/', '-'));
    }
  });

  it('calendar', async () => {
    const { page } = await e2e.openPage({ token: member.token });
    await page.goto('/user/calendar?month=2031-04');
    await expectVisible(page.getByRole('link', { name: task.title }), 'the task on its day');
    await check(page, 'user-calendar');
  });

  it('the command palette, open', async () => {
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/dashboard');
    await expectVisible(page.getByRole('cell', { name: task.title }), 'the dashboard');
    await page.keyboard.press('Control+k');
    await page.getByRole('combobox', { name: 'Search tasks and pages' }).fill('onboard');
    await expectVisible(page.getByRole('option', { name: new RegExp(task.title) }), 'a task found');
    await expectNoSeriousA11yViolations(page, 'command palette');
    await scanAtPhoneSize(page, 'command palette');
  });

  it('the notification panel, open', async () => {
    const { page } = await e2e.openPage({ token: member.token });
    await page.goto('/user/dashboard');
    await page.getByRole('button', { name: /^Notifications, \d+ unread$/ }).click();
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    await expectVisible(panel.getByText(/assigned you to “Write the onboarding guide”/), 'an item');
    await check(page, 'notification-panel');
  });

  it('profile, with the e-mail choices and the calendar link', async () => {
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/profile');
    await expectVisible(page.getByRole('textbox', { name: 'Calendar address' }), 'the calendar');
    await expectVisible(page.getByRole('combobox', { name: 'Assigned to a task' }), 'the choices');
    await check(page, 'profile');
  });

  it('the small-screen menu, opened', async () => {
    const { page } = await e2e.openPage({ token: admin.token, width: 390, height: 844 });
    await page.goto('/admin/dashboard');
    await page.getByRole('banner').getByRole('button', { name: /menu/i }).click();
    await expectVisible(page.getByRole('navigation').getByText('Ada Admin'), 'the opened menu');
    await expectNoSeriousA11yViolations(page, 'small-screen menu');
    await screenshot(page, 'small-screen-menu-390');
    await emulateColourScheme(page, 'dark');
    await expectNoSeriousA11yViolations(page, 'small-screen menu (dark)');
    await screenshot(page, 'small-screen-menu-390-dark');
  });
});
