import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { setupE2E } from './support/e2e.js';
import { eventually, expectPath, expectToast, expectVisible, sideMenu } from './support/ui.js';

/**
 * Editing a checklist as people do: an admin renames a ticked item (it stays ticked) and
 * reorders by keyboard and by drag; an assignee adds and renames their own item; two admins
 * editing the same task meet the conflict view instead of overwriting each other.
 */
const e2e = setupE2E();

async function world(title: string) {
  const admin = await e2e.api.registerAdmin('Ada Admin');
  const member = await e2e.api.registerMember('Mia Member');
  let task = await e2e.api.createTask(admin.token, {
    title,
    assignedTo: [member.user._id],
    todoChecklist: [{ text: 'Draft' }, { text: 'Review' }, { text: 'Ship' }],
  });
  task = await e2e.api.tickFirst(member.token, task, 1);
  return { admin, member, task };
}

/** The checklist's item texts in the edit form, in order. */
function itemTexts(page: Page): Promise<string[]> {
  return page
    .getByRole('group', { name: 'TODO Checklist' })
    .getByRole('textbox', { name: /^Checklist item \d+$/ })
    .evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));
}

/** Drags one row's handle with the mouse, in small steps, to the vertical middle of `target`. */
async function dragHandle(page: Page, handle: Locator, target: Locator, above = true) {
  const from = await handle.boundingBox();
  const to = await target.boundingBox();
  if (!from || !to) throw new Error('the handle or the target row is not on screen');
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  const y = above ? to.y + 2 : to.y + to.height - 2;
  await page.mouse.move(from.x + from.width / 2, y, { steps: 12 });
  await page.mouse.up();
}

describe('editing a checklist', () => {
  it('an admin renames a ticked item (it stays ticked), reorders by keyboard and drag, and saves', async () => {
    const { admin, task } = await world('Checklist: rename and reorder');
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto(`/admin/tasks/${task._id}/edit`);
    const checklist = page.getByRole('group', { name: 'TODO Checklist' });
    await eventually(() => itemTexts(page), ['Draft', 'Review', 'Ship'], 'the stored items');
    // The admin sees which item is ticked, and by whom.
    await expectVisible(
      checklist.getByText('Done, ticked by Mia Member'),
      'the tick and its author',
    );

    await checklist.getByRole('textbox', { name: 'Checklist item 1' }).fill('First draft');
    // Keyboard: the handle moves its item with the arrow keys, and the move is announced.
    await checklist.getByRole('button', { name: 'Move “Ship”', exact: true }).focus();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await eventually(() => itemTexts(page), ['Ship', 'First draft', 'Review'], 'after the keys');
    await expectVisible(
      checklist.getByText('“Ship” moved to position 1 of 3.'),
      'the announcement of the move',
    );
    // Drag: Review's handle onto the top of First draft's row.
    const rows = checklist.getByRole('listitem');
    await dragHandle(
      page,
      checklist.getByRole('button', { name: 'Move “Review”', exact: true }),
      rows.nth(1),
    );
    await eventually(() => itemTexts(page), ['Ship', 'Review', 'First draft'], 'after the drag');

    await page.getByRole('button', { name: 'UPDATE TASK' }).click();
    await expectToast(page, 'Task Updated Successfully');
    const saved = await e2e.api.getTask(admin.token, task._id);
    const draft = task.todoChecklist[0]!;
    expect(saved.todoChecklist.map(({ _id, text, completed }) => [_id, text, completed])).toEqual([
      [task.todoChecklist[2]!._id, 'Ship', false],
      [task.todoChecklist[1]!._id, 'Review', false],
      [draft._id, 'First draft', true],
    ]);

    await page.reload();
    await eventually(() => itemTexts(page), ['Ship', 'Review', 'First draft'], 'after a reload');
    await expectVisible(checklist.getByText('Done, ticked by Mia Member'), 'the tick kept');
  });

  it('an assignee adds an item, renames it, and cannot rename the others; an error keeps the text', async () => {
    const { admin, member, task } = await world('Checklist: the assignee adds');
    const session = await e2e.openPage({ token: member.token });
    const { page } = session;
    await page.goto(`/user/task-details/${task._id}`);
    await expectVisible(page.getByRole('checkbox', { name: 'Draft' }), 'the checklist');
    // Items the admin wrote cannot be renamed by the member.
    expect(await page.getByRole('button', { name: /^Rename/ }).count()).toBe(0);

    const box = page.getByRole('textbox', { name: 'Add a checklist item' });
    const tooLong = 'x'.repeat(501);
    session.expectFailedRequest({ path: `/api/tasks/${task._id}/todo`, status: 400 });
    await box.fill(tooLong);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expectVisible(page.getByRole('alert').filter({ hasText: /500/ }), 'the reason');
    expect(await box.inputValue()).toBe(tooLong);

    await box.fill('Check the numbers');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expectVisible(page.getByRole('checkbox', { name: 'Check the numbers' }), 'the new item');
    expect(await box.inputValue()).toBe('');

    await page.getByRole('button', { name: 'Rename “Check the numbers”' }).click();
    const rename = page.getByRole('textbox', { name: 'New text for “Check the numbers”' });
    await rename.fill('Check the numbers twice');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expectVisible(
      page.getByRole('checkbox', { name: 'Check the numbers twice' }),
      'the renamed item',
    );
    expect(await page.getByRole('button', { name: /^Rename/ }).count()).toBe(1);

    const saved = await e2e.api.getTask(admin.token, task._id);
    expect(saved.todoChecklist.map((item) => item.text)).toEqual([
      'Draft',
      'Review',
      'Ship',
      'Check the numbers twice',
    ]);
  });

  it('two admins edit the same task: the second save shows the conflict view; keep mine, take theirs', async () => {
    const { admin, task } = await world('Checklist: two editors');
    const other = await e2e.api.registerAdmin('Otto Other');
    const firstSession = await e2e.openPage({ token: admin.token });
    const first = firstSession.page;
    const secondSession = await e2e.openPage({ token: other.token });
    const second = secondSession.page;
    for (const page of [first, second]) {
      await page.goto(`/admin/tasks/${task._id}/edit`);
      await expect.poll(() => page.getByLabel('Task Title').inputValue()).toBe(task.title);
    }

    // The first admin changes the title and saves.
    await first.getByLabel('Task Title').fill('Title by Ada');
    await first.getByRole('button', { name: 'UPDATE TASK' }).click();
    await expectToast(first, 'Task Updated Successfully');

    // The second, still on the version they loaded, changes the description and saves.
    await second.getByLabel('Description').fill('Description by Otto');
    secondSession.expectFailedRequest({ path: `/api/tasks/${task._id}`, status: 409 });
    await second.getByRole('button', { name: 'UPDATE TASK' }).click();
    await expectVisible(
      second.getByRole('heading', {
        name: 'This task was changed by someone else while you were editing',
      }),
      'the conflict view',
    );
    const titleChoice = second.getByRole('group', { name: /Task Title/ });
    expect(await titleChoice.innerText()).toContain('changed by them');
    expect(await titleChoice.getByRole('radio', { name: 'Theirs' }).isChecked()).toBe(true);
    expect(await titleChoice.innerText()).toContain('Title by Ada');
    const descriptionChoice = second.getByRole('group', { name: /Description/ });
    expect(await descriptionChoice.getByRole('radio', { name: 'Mine' }).isChecked()).toBe(true);
    await second.getByRole('button', { name: 'Keep mine' }).click();
    await expectToast(second, 'Task Updated Successfully');
    let saved = await e2e.api.getTask(admin.token, task._id);
    expect([saved.title, saved.description]).toEqual(['Title by Ada', 'Description by Otto']);
    // The first item is still ticked: the form never sends ticks of stored items.
    expect(saved.todoChecklist[0]?.completed).toBe(true);

    // Now the first admin's form is the old one: their change meets Otto's, and they take his.
    await first.getByLabel('Priority').selectOption('High');
    firstSession.expectFailedRequest({ path: `/api/tasks/${task._id}`, status: 409 });
    await first.getByRole('button', { name: 'UPDATE TASK' }).click();
    await expectVisible(first.getByRole('button', { name: 'Take theirs' }), 'the conflict view');
    // Leaving with a choice still open asks first; staying keeps the view.
    let question = '';
    first.once('dialog', (dialog) => {
      question = dialog.message();
      void dialog.dismiss();
    });
    await sideMenu(first).getByRole('link', { name: 'Manage Tasks' }).click();
    await eventually(
      async () => question,
      'You have unsaved changes. Leave this page and lose them?',
      'the question',
    );
    await expectPath(first, `/admin/tasks/${task._id}/edit`);

    await first.getByRole('button', { name: 'Take theirs' }).click();
    await expect
      .poll(() => first.getByLabel('Description').inputValue())
      .toBe('Description by Otto');
    expect(await first.getByLabel('Priority').inputValue()).toBe('Low');
    await expectVisible(first.getByText(/This is the current version now\./), 'the notice');
    saved = await e2e.api.getTask(admin.token, task._id);
    expect(saved.priority).toBe('Low');
  });
});
