import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiTask, SignedInUser } from './support/api.js';
import { setupE2E } from './support/e2e.js';
import { liveStreamOpened } from './support/live-stream.js';
import { expectHidden, expectVisible } from './support/ui.js';

/**
 * The task page with what a real browser brings: names too long for any line (one word, no
 * spaces), and a task an admin deletes while a member has it open.
 */
const e2e = setupE2E();

const LONG_ADMIN = `Ada${'Y'.repeat(90)}`;
const LONG_MEMBER = `Marcus${'X'.repeat(90)}`;

/** How far the page reaches past the window's right edge (0 or less: it fits). */
function pageOverflow(page: Page): Promise<number> {
  return page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
}

/** How far the side menu's content reaches past its own right edge. */
function menuOverflow(page: Page): Promise<number> {
  return page
    .getByRole('navigation', { name: 'Main' })
    .evaluate((menu) => menu.scrollWidth - menu.clientWidth);
}

describe('a long unbroken name', () => {
  let admin: SignedInUser;
  let member: SignedInUser;
  let task: ApiTask;

  beforeAll(async () => {
    admin = await e2e.api.registerAdmin(LONG_ADMIN);
    member = await e2e.api.registerMember(LONG_MEMBER);
    task = await e2e.api.createTask(admin.token, {
      title: 'Long names',
      assignedTo: [member.user._id],
      todoChecklist: [{ text: 'Draft' }, { text: 'Review' }],
    });
    // The member's tick puts their name in the history; their comment heads a comment with it.
    await e2e.api.tickFirst(member.token, task, 1);
    await e2e.api.request('POST', `/api/tasks/${task._id}/comments`, member.token, {
      body: 'First draft is done.',
    });
  });

  it.each([
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ])("fits the admin's task page and the side menu at $width px", async ({ width, height }) => {
    const { page } = await e2e.openPage({ token: admin.token, width, height });
    await page.goto(`/admin/tasks/${task._id}`);
    await expectVisible(page.getByText('First draft is done.'), 'the comment');
    await expectVisible(page.getByRole('list', { name: 'Assignees' }), 'the assignees');
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);

    if (width < 1080) await page.getByRole('button', { name: 'Open menu' }).click();
    await expectVisible(page.getByRole('navigation', { name: 'Main' }), 'the side menu');
    expect(await menuOverflow(page)).toBeLessThanOrEqual(0);
    // The name is cut short in the menu, and all there on hover.
    const name = page.getByRole('navigation', { name: 'Main' }).locator('p', { hasText: 'Ada' });
    expect(await name.getAttribute('title')).toBe(LONG_ADMIN);
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
  });

  it("fits the member's task details page at 390 px", async () => {
    const { page } = await e2e.openPage({ token: member.token, width: 390, height: 844 });
    await page.goto(`/user/task-details/${task._id}`);
    await expectVisible(page.getByText('First draft is done.'), 'the comment');
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
  });
});

describe('a task deleted while it is open', () => {
  it('tells the member at once, with the way back, and keeps the comment they were typing', async () => {
    const admin = await e2e.api.registerAdmin('Ada Admin');
    const member = await e2e.api.registerMember('Mia Member');
    const task = await e2e.api.createTask(admin.token, {
      title: 'Soon gone',
      assignedTo: [member.user._id],
    });
    const session = await e2e.openPage({ token: member.token });
    const { page } = session;
    // Asking for the deleted task again is what tells the page it is gone.
    session.expectFailedRequest({ path: `/api/tasks/${task._id}`, status: 404 });
    const live = liveStreamOpened(page);
    await page.goto(`/user/task-details/${task._id}`);
    await expectVisible(page.getByRole('heading', { name: 'Soon gone' }), 'the task');
    await live;
    await page.getByRole('combobox', { name: 'Add a comment' }).fill('Half a thought');

    await e2e.api.request('DELETE', `/api/tasks/${task._id}`, admin.token);

    const alert = page.getByRole('alert');
    await expectVisible(alert.getByRole('heading', { name: 'Task not found' }), 'the notice');
    await expectVisible(alert.getByRole('link', { name: 'Back to My Tasks' }), 'the way back');
    expect(await alert.getByRole('textbox', { name: 'Your comment, not sent' }).inputValue()).toBe(
      'Half a thought',
    );
    await expectHidden(page.getByRole('checkbox', { name: 'First step' }), 'the checklist');
  });

  it("tells an admin who has the task's page open, too", async () => {
    const admin = await e2e.api.registerAdmin('Ada Admin');
    const other = await e2e.api.registerAdmin('Otto Admin');
    const member = await e2e.api.registerMember('Mia Member');
    const task = await e2e.api.createTask(admin.token, {
      title: 'Gone for admins',
      assignedTo: [member.user._id],
    });
    const session = await e2e.openPage({ token: other.token });
    const { page } = session;
    session.expectFailedRequest({ path: `/api/tasks/${task._id}`, status: 404 });
    const live = liveStreamOpened(page);
    await page.goto(`/admin/tasks/${task._id}`);
    await expectVisible(page.getByRole('heading', { name: 'Gone for admins' }), 'the task');
    await live;

    await e2e.api.request('DELETE', `/api/tasks/${task._id}`, admin.token);

    const alert = page.getByRole('alert');
    await expectVisible(alert.getByRole('heading', { name: 'Task not found' }), 'the notice');
    await expectVisible(alert.getByRole('link', { name: 'Back to Manage Tasks' }), 'the way back');
  });
});

describe('a task deleted while an admin edits it', () => {
  it('keeps what they typed and saves it as a new task, ticks and all', async () => {
    const admin = await e2e.api.registerAdmin('Ada Admin');
    const other = await e2e.api.registerAdmin('Otto Admin');
    const member = await e2e.api.registerMember('Mia Member');
    const task = await e2e.api.createTask(admin.token, {
      title: 'Edited while deleted',
      assignedTo: [member.user._id],
      todoChecklist: [{ text: 'Draft' }, { text: 'Review' }],
    });
    await e2e.api.tickFirst(member.token, task, 1);
    const session = await e2e.openPage({ token: other.token });
    const { page } = session;
    session.expectFailedRequest({ path: `/api/tasks/${task._id}`, status: 404 });
    // The checklist's tick history may be asked for in the same refetch, before the form knows.
    session.expectFailedRequest({ path: `/api/tasks/${task._id}/activity`, status: 404 });
    const live = liveStreamOpened(page);
    await page.goto(`/admin/tasks/${task._id}/edit`);
    const title = page.getByLabel('Task Title');
    await expectVisible(title, 'the form');
    await live;
    await title.fill('Edited while deleted, take two');

    await e2e.api.request('DELETE', `/api/tasks/${task._id}`, admin.token);

    const alert = page.getByRole('alert').filter({ hasText: 'deleted by someone else' });
    await expectVisible(alert, 'the notice');
    expect(await title.inputValue()).toBe('Edited while deleted, take two');
    await expectHidden(page.getByRole('button', { name: 'Delete' }), 'the Delete button');
    await page.getByRole('button', { name: 'SAVE AS NEW TASK' }).click();

    const link = page
      .getByRole('status')
      .getByRole('link', { name: 'Edited while deleted, take two' });
    await expectVisible(link, 'the link to the new task');
    await link.click();
    await expectVisible(
      page.getByRole('heading', { name: 'Edited while deleted, take two' }),
      'the new task',
    );
    const { tasks } = await e2e.api.listTasks(other.token);
    const created = tasks.find((one) => one.title === 'Edited while deleted, take two');
    expect(created?.todoChecklist.map((item) => [item.text, item.completed])).toEqual([
      ['Draft', true],
      ['Review', false],
    ]);
    expect(created?.status).toBe('In Progress');
  });
});
