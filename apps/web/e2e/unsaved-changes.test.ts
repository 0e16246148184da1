import type { Dialog, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { setupE2E } from './support/e2e.js';
import { eventually, expectPath, expectToast, expectVisible, sideMenu } from './support/ui.js';

/**
 * Nothing a person typed is lost by leaving: with a changed form, a link in the app and the
 * browser's Back button ask first; "stay" keeps the page and what was typed, "leave" goes. A
 * form with nothing to lose (unchanged, changed back, or saved) leaves at once, and one press of
 * Back leaves its URL: saving keeps the person on the form, and Back then goes to the page they
 * came from, not to a second copy of the form.
 */
const e2e = setupE2E();

const QUESTION = 'You have unsaved changes. Leave this page and lose them?';

/** Answers the page's next confirm() with `accept`, and resolves with its message. */
function answerNextQuestion(page: Page, accept: boolean): Promise<string> {
  return new Promise((resolve) => {
    page.once('dialog', (dialog: Dialog) => {
      const message = dialog.message();
      void (accept ? dialog.accept() : dialog.dismiss()).then(() => resolve(message));
    });
  });
}

/** Records every question the page asks, answering "stay" (so a wrong question also shows). */
function recordQuestions(page: Page): string[] {
  const asked: string[] = [];
  page.on('dialog', (dialog: Dialog) => {
    asked.push(dialog.message());
    void dialog.dismiss();
  });
  return asked;
}

/**
 * Waits until the app has taken its Back-button guard away (src/lib/back-button-guard.ts): once a
 * form is clean again (changes undone, or saved) it leaves the guard entry by a `history.back()`
 * of its own, which lands a moment later. A Back pressed before it lands goes to the same entry
 * (on a slow machine the test's Back came first, and stayed on the form): a person cannot press
 * Back within that instant, a test can.
 */
async function guardTakenAway(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const state: unknown = window.history.state;
      return !(typeof state === 'object' && state !== null && 'unsavedChangesGuard' in state);
    },
    undefined,
    { timeout: 10_000 },
  );
}

/**
 * An admin on a task's edit form, reached from Manage Tasks through the task's page, so the
 * history holds the list, the task page and the form, as when a person clicks their way there.
 */
async function openEditFormThroughTheApp() {
  const admin = await e2e.api.registerAdmin('Ada Admin');
  const member = await e2e.api.registerMember('Mia Member');
  const task = await e2e.api.createTask(admin.token, {
    title: 'Plan the offsite',
    assignedTo: [member.user._id],
    todoChecklist: [{ text: 'Book the venue' }],
  });
  const { page } = await e2e.openPage({ token: admin.token });
  await page.goto('/admin/tasks');
  await page.getByRole('link', { name: 'Plan the offsite' }).first().click();
  const taskPath = `/admin/tasks/${task._id}`;
  await expectPath(page, taskPath);
  await page.getByRole('link', { name: 'Edit', exact: true }).click();
  const editPath = `${taskPath}/edit`;
  await expectPath(page, editPath);
  const title = page.getByRole('textbox', { name: 'Task Title' });
  await expectVisible(title, 'the edit form');
  await eventually(() => title.inputValue(), 'Plan the offsite', 'the loaded title');
  return { page, task, taskPath, editPath, title };
}

describe('leaving a changed form', () => {
  it('asks first on a link; staying keeps what was typed', async () => {
    const admin = await e2e.api.registerAdmin('Ada Admin');
    const member = await e2e.api.registerMember('Mia Member');
    const task = await e2e.api.createTask(admin.token, {
      title: 'Plan the offsite',
      assignedTo: [member.user._id],
      todoChecklist: [{ text: 'Book the venue' }],
    });
    const { page } = await e2e.openPage({ token: admin.token });
    // Arrive through the app, so the history has the task page behind the form.
    await page.goto(`/admin/tasks/${task._id}`);
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    const editPath = `/admin/tasks/${task._id}/edit`;
    await expectPath(page, editPath);
    const title = page.getByRole('textbox', { name: 'Task Title' });
    await expectVisible(title, 'the edit form');
    await eventually(() => title.inputValue(), 'Plan the offsite', 'the loaded title');

    // Unchanged: leaving asks nothing.
    await page.evaluate(() => window.history.back());
    await expectPath(page, `/admin/tasks/${task._id}`);
    await page.evaluate(() => window.history.forward());
    await expectPath(page, editPath);
    await eventually(() => title.inputValue(), 'Plan the offsite', 'the title again');
    await title.fill('Plan the offsite in May');

    // A link: "stay" keeps the form and the text.
    let asked = answerNextQuestion(page, false);
    await sideMenu(page).getByRole('link', { name: 'Dashboard' }).click();
    expect(await asked).toBe(QUESTION);
    await expectPath(page, editPath);
    expect(await title.inputValue()).toBe('Plan the offsite in May');

    // "Leave" goes.
    asked = answerNextQuestion(page, true);
    await sideMenu(page).getByRole('link', { name: 'Dashboard' }).click();
    expect(await asked).toBe(QUESTION);
    await expectPath(page, '/admin/dashboard');
  });

  it('asks first when the command palette or a g shortcut leaves a changed form', async () => {
    const admin = await e2e.api.registerAdmin('Ada Admin');
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/create-task');
    const title = page.getByRole('textbox', { name: 'Task Title' });
    await expectVisible(title, 'the create form');
    await title.fill('A task typed with care');

    // The palette: "stay" keeps the form, the text and the palette open.
    let asked = answerNextQuestion(page, false);
    await page.keyboard.press('Control+k');
    const search = page.getByRole('combobox', { name: 'Search tasks and pages' });
    await search.fill('Calendar');
    await expectVisible(page.getByRole('option', { name: /Calendar/ }), 'the Calendar page');
    await page.keyboard.press('Enter');
    expect(await asked).toBe(QUESTION);
    await expectPath(page, '/admin/create-task');
    await page.keyboard.press('Escape');
    expect(await title.inputValue()).toBe('A task typed with care');

    // A g shortcut, typed outside the field: asked too.
    await page.getByRole('heading', { level: 1 }).click();
    asked = answerNextQuestion(page, false);
    await page.keyboard.press('g');
    await page.keyboard.press('t');
    expect(await asked).toBe(QUESTION);
    await expectPath(page, '/admin/create-task');
    expect(await title.inputValue()).toBe('A task typed with care');

    // "Leave" goes.
    asked = answerNextQuestion(page, true);
    await page.keyboard.press('g');
    await page.keyboard.press('t');
    expect(await asked).toBe(QUESTION);
    await expectPath(page, '/admin/tasks');
  });

  it('asks first on the Back button; staying keeps what was typed, leaving goes back', async () => {
    const { page, taskPath, editPath, title } = await openEditFormThroughTheApp();
    await title.fill('Plan the offsite in May');

    let asked = answerNextQuestion(page, false);
    await page.goBack();
    expect(await asked).toBe(QUESTION);
    await expectPath(page, editPath);
    expect(await title.inputValue()).toBe('Plan the offsite in May');

    // Typing on after staying, then Back again: asked again, and "leave" goes to the task page.
    await title.fill('Plan the offsite in June');
    asked = answerNextQuestion(page, true);
    await page.goBack();
    expect(await asked).toBe(QUESTION);
    await expectPath(page, taskPath);
    await expectVisible(page.getByRole('link', { name: 'Edit', exact: true }), 'the task page');
  });

  it('goes back at once from a form with no changes, or with its changes undone', async () => {
    const { page, taskPath, editPath, title } = await openEditFormThroughTheApp();
    const asked = recordQuestions(page);

    await page.goBack();
    await expectPath(page, taskPath);
    await page.goForward();
    await expectPath(page, editPath);
    await eventually(() => title.inputValue(), 'Plan the offsite', 'the form again');

    await title.fill('Plan the offsite in May');
    await title.fill('Plan the offsite');
    await guardTakenAway(page);
    await page.goBack();
    await expectPath(page, taskPath);
    await page.goBack();
    await expectPath(page, '/admin/tasks');
    expect(asked).toEqual([]);
  });

  it('after saving, Back does not ask, and one press leaves the form for the page before it', async () => {
    const { page, taskPath, title } = await openEditFormThroughTheApp();
    const asked = recordQuestions(page);
    await title.fill('Plan the offsite in May');
    await page.getByRole('button', { name: 'UPDATE TASK' }).click();
    await expectToast(page, 'Task Updated Successfully');
    // Saving keeps the person on the form, with what they saved.
    await eventually(() => title.inputValue(), 'Plan the offsite in May', 'the saved title');
    await guardTakenAway(page);

    await page.goBack();
    await expectPath(page, taskPath);
    await expectVisible(page.getByRole('heading', { name: 'Plan the offsite in May' }), 'the task');
    expect(asked).toEqual([]);
  });

  it('after leaving by a link, one press of Back returns to the form and the next one leaves it', async () => {
    const { page, taskPath, editPath, title } = await openEditFormThroughTheApp();
    await title.fill('Plan the offsite in May');
    const leave = answerNextQuestion(page, true);
    await sideMenu(page).getByRole('link', { name: 'Dashboard' }).click();
    expect(await leave).toBe(QUESTION);
    await expectPath(page, '/admin/dashboard');
    // The form is gone only once the dashboard has replaced it.
    await expectVisible(
      page.getByRole('heading', { level: 1, name: /Ada Admin/ }),
      'the dashboard greeting',
    );

    const asked = recordQuestions(page);
    await page.goBack();
    await expectPath(page, editPath);
    await eventually(() => title.inputValue(), 'Plan the offsite', 'the form, as saved');
    await page.goBack();
    await expectPath(page, taskPath);
    expect(asked).toEqual([]);
  });
});
