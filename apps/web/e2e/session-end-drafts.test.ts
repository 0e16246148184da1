import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { TEST_PASSWORD } from './support/api.js';
import type { PageSession } from './support/browser.js';
import { setupE2E } from './support/e2e.js';
import {
  eventually,
  expectHidden,
  expectPath,
  expectSignedOutAfter,
  expectToast,
  expectVisible,
  signInThroughForm,
} from './support/ui.js';

/**
 * Nothing typed is lost when a session ends under a form: the save is refused (401), the app
 * goes to the sign-in page, and signing in again leads back to the form with what was typed, for
 * the same person only. Saving then works as usual, conflict view included.
 */
const e2e = setupE2E();

const RESTORED = 'What you typed before your session ended is back. Check it, then save.';

async function addChecklistItem(page: Page, text: string) {
  const section = page.getByRole('group', { name: 'TODO Checklist' });
  await section.getByRole('textbox', { name: 'TODO Checklist' }).fill(text);
  await section.getByRole('button', { name: 'Add', exact: true }).click();
}

/**
 * Ends every session of the account on the server, as an expiry or a sign-out elsewhere does.
 * The save is then refused, and so may be what the page was fetching in the background as the
 * session ended (the live stream, the pickers' lists, the task's history).
 */
async function endSessionsOnServer(
  session: Pick<PageSession, 'expectSessionEnd'>,
  token: string,
  taskId?: string,
) {
  const refused = ['/api/users', '/api/labels'];
  if (taskId) refused.push(`/api/tasks/${taskId}/activity`, `/api/tasks/${taskId}`);
  else refused.push('/api/tasks');
  session.expectSessionEnd(refused);
  await e2e.api.request('POST', '/api/auth/logout-all', token);
}

/** Fills the create form so that it can be sent (assigned to `member`, one item). */
async function fillCreateForm(page: Page, title: string, member: string) {
  await page.getByLabel('Task Title').fill(title);
  await page.getByLabel('Description').fill('Dates, owners and the checklist for v2.');
  await page.getByLabel('Priority').selectOption('High');
  await page.getByLabel('Due Date').fill('2031-05-20');
  const assign = page.getByRole('group', { name: 'Assigned To' });
  await assign.getByRole('button', { name: 'Add Members' }).click();
  await page.getByRole('dialog').getByRole('checkbox', { name: member }).check();
  await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();
  await addChecklistItem(page, 'Draft the notes');
}

describe('a session that ends under a task form', () => {
  it('gives the create form back, filled, after signing in again; saving creates the task', async () => {
    const admin = await e2e.api.registerAdmin('Ada Admin');
    const mia = await e2e.api.registerMember('Mia Member');
    const session = await e2e.openPage({ token: admin.token });
    const { page } = session;
    await page.goto('/admin/create-task');
    await fillCreateForm(page, 'Plan the release', 'Mia Member');

    await endSessionsOnServer(session, admin.token);
    await expectSignedOutAfter(page, page.getByRole('button', { name: 'CREATE TASK' }));
    await signInThroughForm(page, admin.user.email, TEST_PASSWORD);

    await expectPath(page, '/admin/create-task');
    await expectVisible(page.getByText(RESTORED), 'the notice that the draft is back');
    expect(await page.getByLabel('Task Title').inputValue()).toBe('Plan the release');
    expect(await page.getByLabel('Description').inputValue()).toBe(
      'Dates, owners and the checklist for v2.',
    );
    expect(await page.getByLabel('Priority').inputValue()).toBe('High');
    expect(await page.getByLabel('Due Date').inputValue()).toBe('2031-05-20');
    await expectVisible(
      page.getByRole('group', { name: 'Assigned To' }).getByRole('img', { name: 'Mia Member' }),
      "Mia's avatar",
    );

    await page.getByRole('button', { name: 'CREATE TASK' }).click();
    await expectToast(page, 'Task Created Successfully');
    const newToken = await page.evaluate(() => localStorage.getItem('token'));
    const { tasks } = await e2e.api.listTasks(newToken!);
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({
      title: 'Plan the release',
      priority: 'High',
      assignedTo: [expect.objectContaining({ _id: mia.user._id })],
      todoChecklist: [expect.objectContaining({ text: 'Draft the notes', completed: false })],
    });
    // The fresh form after creating starts blank, and nothing is kept any more.
    await eventually(() => page.getByLabel('Task Title').inputValue(), '', 'the blank form');
    await expectHidden(page.getByText(RESTORED), 'the notice, on the next form');
    expect(
      await page.evaluate(() =>
        Object.keys(sessionStorage).filter((key) => key.startsWith('form-draft:')),
      ),
    ).toEqual([]);
  });

  it('shows nothing of it to someone else who signs in on that tab', async () => {
    const ada = await e2e.api.registerAdmin('Ada Admin');
    const bo = await e2e.api.registerAdmin('Bo Admin');
    const session = await e2e.openPage({ token: ada.token });
    const { page } = session;
    await page.goto('/admin/create-task');
    await e2e.api.registerMember('Noa Member');
    await fillCreateForm(page, 'Salary review for Noa', 'Noa Member');
    await endSessionsOnServer(session, ada.token);
    await expectSignedOutAfter(page, page.getByRole('button', { name: 'CREATE TASK' }));
    await signInThroughForm(page, bo.user.email, TEST_PASSWORD);
    await expectPath(page, '/admin/create-task');
    await expectVisible(page.getByLabel('Task Title'), 'the form');
    expect(await page.getByLabel('Task Title').inputValue()).toBe('');
    expect(await page.getByText(RESTORED).count()).toBe(0);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  });

  it('gives back an edit opened the spec’s way, at the edit form’s own address', async () => {
    const admin = await e2e.api.registerAdmin('Ada Admin');
    const mia = await e2e.api.registerMember('Mia Member');
    const task = await e2e.api.createTask(admin.token, {
      title: 'Order the banners',
      assignedTo: [mia.user._id],
    });
    const session = await e2e.openPage({ token: admin.token });
    const { page } = session;
    // The original client opens the edit form at /admin/create-task, the task's id in the
    // navigation state (history.state.usr, as react-router keeps it).
    await page.goto('/admin/create-task');
    await page.evaluate((taskId) => {
      history.replaceState({ usr: { taskId }, key: 'edit', idx: 0 }, '', '/admin/create-task');
    }, task._id);
    await page.reload();
    const title = page.getByLabel('Task Title');
    await eventually(() => title.inputValue(), 'Order the banners', 'the loaded title');
    await title.fill('Order the banners in blue');

    await endSessionsOnServer(session, admin.token, task._id);
    await expectSignedOutAfter(page, page.getByRole('button', { name: 'UPDATE TASK' }));
    await signInThroughForm(page, admin.user.email, TEST_PASSWORD);

    await expectPath(page, `/admin/tasks/${task._id}/edit`);
    await expectVisible(page.getByText(RESTORED), 'the notice that the draft is back');
    expect(await title.inputValue()).toBe('Order the banners in blue');
    await page.getByRole('button', { name: 'UPDATE TASK' }).click();
    await expectToast(page, 'Task Updated Successfully');
    const newToken = await page.evaluate(() => localStorage.getItem('token'));
    expect(await e2e.api.getTask(newToken!, task._id)).toMatchObject({
      title: 'Order the banners in blue',
    });
  });

  it('gives an edit back over the version it edited: a change made since shows the conflict view', async () => {
    const admin = await e2e.api.registerAdmin('Ada Admin');
    const mia = await e2e.api.registerMember('Mia Member');
    const task = await e2e.api.createTask(admin.token, {
      title: 'Plan the offsite',
      assignedTo: [mia.user._id],
      todoChecklist: [{ text: 'Book the venue' }],
    });
    const session = await e2e.openPage({ token: admin.token });
    const { page } = session;
    const editPath = `/admin/tasks/${task._id}/edit`;
    await page.goto(editPath);
    const title = page.getByLabel('Task Title');
    await eventually(() => title.inputValue(), 'Plan the offsite', 'the loaded title');
    await title.fill('Plan the offsite in Porto');

    // Meanwhile someone else changes the description, and the session ends.
    const other = await e2e.api.registerAdmin('Bo Admin');
    await e2e.api.request('PUT', `/api/tasks/${task._id}`, other.token, {
      description: 'Two days, thirty people.',
    });
    await endSessionsOnServer(session, admin.token, task._id);
    // Saving over the version the draft edited: the server answers 409 with the current one.
    session.expectFailedRequest({ path: `/api/tasks/${task._id}`, status: 409 });
    await expectSignedOutAfter(page, page.getByRole('button', { name: 'UPDATE TASK' }));
    await signInThroughForm(page, admin.user.email, TEST_PASSWORD);

    await expectPath(page, editPath);
    await expectVisible(page.getByText(RESTORED), 'the notice that the draft is back');
    expect(await title.inputValue()).toBe('Plan the offsite in Porto');
    await page.getByRole('button', { name: 'UPDATE TASK' }).click();
    await expectVisible(
      page.getByText('This task was changed by someone else while you were editing'),
      'the conflict view',
    );
    // Nothing was overwritten: the other admin's description is still the stored one.
    const stored = await e2e.api.getTask(other.token, task._id);
    expect(stored).toMatchObject({
      title: 'Plan the offsite',
      description: 'Two days, thirty people.',
    });
  });
});
