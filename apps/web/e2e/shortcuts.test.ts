import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiTask, SignedInUser } from './support/api.js';
import { setupE2E } from './support/e2e.js';
import { eventually, expectHidden, expectPath, expectVisible, sideMenu } from './support/ui.js';

/**
 * The keyboard as a person uses it in Chromium: the shortcuts the `?` overlay lists (src/app/
 * keyboard-shortcuts.tsx, src/lib/shortcuts.ts), none of them while typing in a field, focus on
 * the new page's heading after a navigation, and the skip link.
 */
const e2e = setupE2E();

let admin: SignedInUser;
let member: SignedInUser;
let task: ApiTask;

beforeAll(async () => {
  admin = await e2e.api.registerAdmin('Ada Admin');
  member = await e2e.api.registerMember('Mia Member');
  task = await e2e.api.createTask(admin.token, {
    title: 'Plan the offsite',
    assignedTo: [member.user._id],
    todoChecklist: [{ text: 'Book the venue' }, { text: 'Send the agenda' }],
  });
  await e2e.api.createTask(admin.token, {
    title: 'Order the laptops',
    assignedTo: [member.user._id],
  });
});

/** What has the keyboard focus: its tag, its id, its href and its text (or accessible value). */
function focused(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    return {
      tag: element?.tagName.toLowerCase() ?? '',
      id: element?.id ?? '',
      href: element?.getAttribute('href') ?? '',
      text: (element?.textContent ?? '').trim(),
      inMainHeading: !!element?.matches('main h1'),
    };
  });
}

/** The dashboard, drawn (its greeting is the page's heading). */
async function expectDashboard(page: Page, path: string, name: string) {
  await expectPath(page, path);
  await expectVisible(page.getByRole('heading', { level: 1, name: new RegExp(name) }), path);
}

describe('keyboard shortcuts', () => {
  it('? opens the list of shortcuts and Esc closes it', async () => {
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/dashboard');
    await expectDashboard(page, '/admin/dashboard', 'Ada Admin');
    await page.keyboard.press('?');
    const overlay = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await expectVisible(overlay, 'the shortcuts overlay');
    await expectVisible(overlay.getByText('Create a task'), 'the admin-only c');
    await page.keyboard.press('Escape');
    await expectHidden(overlay, 'the shortcuts overlay');
  });

  it('g t, g d and c go to the tasks, the dashboard and the create form, focusing the heading', async () => {
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/dashboard');
    await expectDashboard(page, '/admin/dashboard', 'Ada Admin');

    await page.keyboard.press('g');
    await page.keyboard.press('t');
    await expectPath(page, '/admin/tasks');
    await expectVisible(page.getByRole('link', { name: 'Plan the offsite' }), 'the task cards');
    // Focus goes to the new page's heading.
    await eventually(async () => (await focused(page)).inMainHeading, true, 'heading focus');

    await page.keyboard.press('g');
    await page.keyboard.press('d');
    await expectDashboard(page, '/admin/dashboard', 'Ada Admin');
    await eventually(async () => (await focused(page)).inMainHeading, true, 'heading focus');

    await page.keyboard.press('c');
    await expectPath(page, '/admin/create-task');
    await expectVisible(page.getByRole('heading', { level: 1, name: 'Create Task' }), 'the form');
  });

  it('/ focuses the search box; j and k move through the cards and Enter opens one', async () => {
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/tasks');
    const cards = page.getByRole('main').getByRole('listitem').getByRole('link');
    await eventually(() => cards.count(), 2, 'both task cards');
    const hrefs = await cards.evaluateAll((links) =>
      links.map((link) => link.getAttribute('href')),
    );

    await page.keyboard.press('/');
    await eventually(async () => (await focused(page)).tag, 'input', 'focus in the search box');
    expect(
      await page.getByRole('searchbox').evaluate((box) => box === document.activeElement),
    ).toBe(true);
    await page.getByRole('searchbox').blur();

    await page.keyboard.press('j');
    await eventually(async () => (await focused(page)).href, hrefs[0], 'the first card');
    await page.keyboard.press('j');
    await eventually(async () => (await focused(page)).href, hrefs[1], 'the second card');
    await page.keyboard.press('k');
    await eventually(async () => (await focused(page)).href, hrefs[0], 'the first card again');
    await page.keyboard.press('Enter');
    await expectPath(page, hrefs[0]!);
  });

  it('x ticks the focused checklist item on a member’s task page', async () => {
    const { page } = await e2e.openPage({ token: member.token });
    await page.goto(`/user/task-details/${task._id}`);
    const first = page.getByRole('checkbox', { name: 'Book the venue' });
    await expectVisible(first, 'the checklist');
    expect(await first.isChecked()).toBe(false);

    await page.keyboard.press('j');
    await eventually(() => first.evaluate((box) => box === document.activeElement), true, 'focus');
    await page.keyboard.press('x');
    await eventually(() => first.isChecked(), true, 'the item ticked');
    await eventually(
      async () => (await e2e.api.getTask(member.token, task._id)).todoChecklist[0]?.completed,
      true,
      'the tick saved',
    );
    expect(await page.getByRole('checkbox', { name: 'Send the agenda' }).isChecked()).toBe(false);
  });

  it('no shortcut fires while typing in a field', async () => {
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/tasks');
    const search = page.getByRole('searchbox');
    await expectVisible(search, 'the search box');
    await search.click();
    await page.keyboard.type('c');
    await page.keyboard.type('gd');
    await page.keyboard.type('?');
    await eventually(() => search.inputValue(), 'cgd?', 'what was typed');
    expect(new URL(page.url()).pathname).toBe('/admin/tasks');
    expect(await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).isVisible()).toBe(false);

    // The create form's title box, the same.
    await page.goto('/admin/create-task');
    const title = page.getByRole('textbox', { name: 'Task Title' });
    await expectVisible(title, 'the create form');
    await title.click();
    await page.keyboard.type('g t c');
    await eventually(() => title.inputValue(), 'g t c', 'the title typed');
    expect(new URL(page.url()).pathname).toBe('/admin/create-task');
  });

  it('a link in the menu moves focus to the new page’s heading', async () => {
    const { page } = await e2e.openPage({ token: member.token });
    await page.goto('/user/dashboard');
    await expectDashboard(page, '/user/dashboard', 'Mia Member');
    await sideMenu(page).getByRole('link', { name: 'My Tasks' }).click();
    await expectPath(page, '/user/tasks');
    await eventually(async () => (await focused(page)).inMainHeading, true, 'heading focus');
    expect((await focused(page)).text).toBe('My Task');
  });

  it('the skip link is the first thing Tab reaches, and takes focus to the main content', async () => {
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/dashboard');
    await expectDashboard(page, '/admin/dashboard', 'Ada Admin');
    // The figures are in: the greeting draws before the data, and until then the main content
    // has nothing a Tab could reach.
    await expectVisible(
      page.getByRole('link', { name: /^Total Tasks: / }),
      "the dashboard's figures",
    );
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    await eventually(() => skip.evaluate((link) => link === document.activeElement), true, 'skip');
    await expectVisible(skip, 'the skip link, shown while focused');
    await page.keyboard.press('Enter');
    await eventually(async () => (await focused(page)).id, 'main', 'focus on the main content');
    // The next Tab goes on inside the main content, not back to the menu.
    await page.keyboard.press('Tab');
    expect(
      await page.evaluate(() => !!document.activeElement?.closest('main')),
      'the next Tab',
    ).toBe(true);
  });
});
