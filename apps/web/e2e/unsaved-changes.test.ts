import type { Dialog, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { setupE2E } from './support/e2e.js';
import { eventually, expectPath, expectVisible, sideMenu } from './support/ui.js';

/**
 * Nothing a person typed is lost by leaving: with a changed form, a link in the app asks first;
 * "stay" keeps the page and what was typed, "leave" goes.
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
});
