import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiTask, SignedInUser } from './support/api.js';
import { setupE2E } from './support/e2e.js';
import { expectHidden, expectPath, expectToast, expectVisible, shownDate } from './support/ui.js';

/**
 * An admin runs the work: creates a task through the form (after its validation says what is
 * missing), filters the list by status, edits a task and deletes one.
 */
const e2e = setupE2E();

let admin: SignedInUser;
let mia: SignedInUser;
let max: SignedInUser;

beforeAll(async () => {
  admin = await e2e.api.registerAdmin('Ada Admin');
  mia = await e2e.api.registerMember('Mia Member');
  max = await e2e.api.registerMember('Max Member');
});

async function submitCreate(page: Page) {
  await page.getByRole('button', { name: 'CREATE TASK' }).click();
}

/** The form's rules in the order the spec checks them. */
const FORM_RULES = [
  'Title is required.',
  'Description is required.',
  'Due Date is required.',
  'Task not assigned to any member.',
  'Add at least one todo task.',
];

/** The error shown under the form, in red: the first rule broken, and only that one. */
async function expectFormError(page: Page, message: string) {
  await expectVisible(page.getByRole('alert').filter({ hasText: message }), `'${message}'`);
  for (const other of FORM_RULES.filter((rule) => rule !== message)) {
    expect(await page.getByText(other).count(), `'${other}' shown with '${message}'`).toBe(0);
  }
}

/** Adds one entry with the Add button of a fieldset (TODO Checklist or Add Attachments). */
async function addEntry(page: Page, group: string, text: string) {
  const section = page.getByRole('group', { name: group });
  await section.getByRole('textbox', { name: group }).fill(text);
  await section.getByRole('button', { name: 'Add', exact: true }).click();
}

/** The card of a task in the list: a link named by the task's title. */
function taskCard(page: Page, title: string) {
  return page.getByRole('tabpanel').getByRole('link', { name: title, exact: true });
}

/** A status tab, whatever count it shows: 'All 4' is found by 'All'. */
function statusTab(page: Page, status: string) {
  return page.getByRole('tab', { name: new RegExp(`^${status}\\b`) });
}

describe('an admin managing tasks', () => {
  it('is told there is no report to download while there are no tasks', async () => {
    expect((await e2e.api.listTasks(admin.token)).tasks).toEqual([]);
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/tasks');
    await expect.poll(() => statusTab(page, 'All').innerText()).toMatch(/^All\s*0$/);
    await page.getByRole('button', { name: 'Download Report' }).click();
    await expectToast(page, 'No task report found.');
  });

  it('creates a task through the form, after the form lists what is missing in order', async () => {
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/dashboard');
    await page.getByRole('navigation').getByRole('link', { name: 'Create Task' }).click();
    await expectPath(page, '/admin/create-task');

    // Each submit shows the first rule broken, in the spec's order; nothing is sent.
    await submitCreate(page);
    await expectFormError(page, 'Title is required.');
    await page.getByLabel('Task Title').fill('   ');
    await submitCreate(page);
    await expectFormError(page, 'Title is required.');
    await page.getByLabel('Task Title').fill('Plan the release');
    await submitCreate(page);
    await expectFormError(page, 'Description is required.');
    await page.getByLabel('Description').fill('Dates, owners and the checklist for v2.');
    await submitCreate(page);
    await expectFormError(page, 'Due Date is required.');
    const priority = page.getByLabel('Priority');
    expect(await priority.inputValue()).toBe('Low');
    await priority.selectOption('High');
    await page.getByLabel('Due Date').fill('2031-05-20');
    await submitCreate(page);
    await expectFormError(page, 'Task not assigned to any member.');

    // Assigned To: Add Members opens the picker; ticks apply only on Done.
    const assign = page.getByRole('group', { name: 'Assigned To' });
    await assign.getByRole('button', { name: 'Add Members' }).click();
    let dialog = page.getByRole('dialog');
    await expectVisible(dialog.getByRole('checkbox', { name: 'Mia Member' }), 'Mia in the picker');
    // It opens with focus in its search box, ready to type a name.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Search users',
    );
    await dialog.getByRole('checkbox', { name: 'Max Member' }).check();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expectHidden(page.getByRole('dialog'), 'the closed picker');
    // Escape closes it the same way, without applying.
    await assign.getByRole('button', { name: 'Add Members' }).click();
    await page.getByRole('dialog').getByRole('checkbox', { name: 'Max Member' }).check();
    await page.keyboard.press('Escape');
    await expectHidden(page.getByRole('dialog'), 'the picker closed with Escape');
    expect(await assign.getByRole('img').count()).toBe(0);
    await assign.getByRole('button', { name: 'Add Members' }).click();
    dialog = page.getByRole('dialog');
    expect(await dialog.getByRole('checkbox', { name: 'Max Member' }).isChecked()).toBe(false);
    await dialog.getByRole('checkbox', { name: 'Mia Member' }).check();
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expectHidden(page.getByRole('dialog'), 'the closed picker');
    await expectVisible(assign.getByRole('img', { name: 'Mia Member' }), "Mia's avatar");
    await submitCreate(page);
    await expectFormError(page, 'Add at least one todo task.');

    // TODO Checklist: numbered items; blank text is ignored; items can be removed.
    await addEntry(page, 'TODO Checklist', 'Draft the notes');
    await addEntry(page, 'TODO Checklist', '   ');
    await addEntry(page, 'TODO Checklist', 'Remove me');
    await addEntry(page, 'TODO Checklist', 'Tag the build');
    const checklist = page.getByRole('group', { name: 'TODO Checklist' });
    // Each row: its number, then its text in a box where it can be renamed.
    const checklistRows = () =>
      checklist
        .getByRole('listitem')
        .evaluateAll((rows) =>
          rows.map(
            (row) =>
              `${(row.textContent ?? '').trim().slice(0, 2)} ${row.querySelector('input')?.value}`,
          ),
        );
    expect(await checklistRows()).toEqual([
      '01 Draft the notes',
      '02 Remove me',
      '03 Tag the build',
    ]);
    await checklist
      .getByRole('button', { name: /^Remove item/ })
      .nth(1)
      .click();
    expect(await checklistRows()).toEqual(['01 Draft the notes', '02 Tag the build']);

    // Add Attachments: links added and removed.
    await addEntry(page, 'Add Attachments', 'example.com/release-notes');
    await addEntry(page, 'Add Attachments', 'https://wrong.example.com');
    const attachments = page.getByRole('group', { name: 'Add Attachments' });
    await attachments
      .getByRole('button', { name: /remove/i })
      .nth(1)
      .click();
    await expectHidden(attachments.getByText('https://wrong.example.com'), 'the removed link');

    expect((await e2e.api.listTasks(admin.token)).tasks).toEqual([]);
    await submitCreate(page);
    await expectToast(page, 'Task Created Successfully');

    // The form is blank again.
    await expect.poll(() => page.getByLabel('Task Title').inputValue()).toBe('');
    expect(await page.getByLabel('Description').inputValue()).toBe('');
    expect(await page.getByLabel('Due Date').inputValue()).toBe('');
    expect(await checklist.getByRole('listitem').count()).toBe(0);
    expect(await attachments.getByRole('listitem').count()).toBe(0);
    expect(await assign.getByRole('img').count()).toBe(0);
    expect(await page.getByLabel('Priority').inputValue()).toBe('Low');

    const [task] = (await e2e.api.listTasks(admin.token)).tasks;
    expect(task).toMatchObject({
      title: 'Plan the release',
      description: 'Dates, owners and the checklist for v2.',
      priority: 'High',
      status: 'Pending',
      // Stored as the absolute link it stands for.
      attachments: ['https://example.com/release-notes'],
    });
    expect(shownDate(task!.dueDate)).toBe('20th May 2031');
    expect(task!.assignedTo.map((person) => person.name)).toEqual(['Mia Member']);
    expect(task!.todoChecklist.map(({ text, completed }) => ({ text, completed }))).toEqual([
      { text: 'Draft the notes', completed: false },
      { text: 'Tag the build', completed: false },
    ]);
  });

  it("shows the server's message when the task cannot be created", async () => {
    const leaver = await e2e.api.registerMember('Lee Leaving');
    const session = await e2e.openPage({ token: admin.token });
    const { page } = session;
    await page.goto('/admin/create-task');
    await page.getByLabel('Task Title').fill('Assigned to someone who left');
    await page.getByLabel('Description').fill('The assignee is deleted before the form is sent.');
    await page.getByLabel('Due Date').fill('2031-07-01');
    await page.getByRole('button', { name: 'Add Members' }).click();
    await page.getByRole('dialog').getByRole('checkbox', { name: 'Lee Leaving' }).check();
    await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();
    await addEntry(page, 'TODO Checklist', 'Never started');

    // Someone else removes the member meanwhile: the server refuses the task with 400.
    await e2e.api.request('DELETE', `/api/users/${leaver.user._id}`, admin.token);
    session.expectFailedRequest({ path: '/api/tasks', status: 400 });
    await submitCreate(page);
    await expectToast(page, 'Assigned user not found');
    // Nothing was created and the form keeps what was typed.
    expect(await page.getByLabel('Task Title').inputValue()).toBe('Assigned to someone who left');
    const titles = (await e2e.api.listTasks(admin.token)).tasks.map((task) => task.title);
    expect(titles).not.toContain('Assigned to someone who left');
  });

  it('filters Manage Tasks with the status tabs and their counts', async () => {
    const pending = await e2e.api.createTask(admin.token, {
      title: 'Filter: pending one',
      assignedTo: [mia.user._id],
      todoChecklist: [{ text: 'a' }, { text: 'b' }],
    });
    const busy = await e2e.api.createTask(admin.token, {
      title: 'Filter: in progress one',
      assignedTo: [max.user._id],
      todoChecklist: [{ text: 'a' }, { text: 'b' }],
    });
    await e2e.api.tickFirst(max.token, busy, 1);
    const done = await e2e.api.createTask(admin.token, {
      title: 'Filter: completed one',
      assignedTo: [mia.user._id, max.user._id],
      todoChecklist: [{ text: 'a' }],
    });
    await e2e.api.tickFirst(mia.token, done, 1);
    const { tasks: all, statusSummary } = await e2e.api.listTasks(admin.token);

    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/tasks');
    await expectVisible(page.getByRole('heading', { name: 'My Task' }), 'the My Task heading');

    const tabs: [string, number, ApiTask['status'] | undefined][] = [
      ['All', statusSummary.all!, undefined],
      ['Pending', statusSummary.pendingTasks!, 'Pending'],
      ['In Progress', statusSummary.inProgressTasks!, 'In Progress'],
      ['Completed', statusSummary.completedTasks!, 'Completed'],
    ];
    for (const [label, count] of tabs) {
      await expect
        .poll(() => statusTab(page, label).innerText(), { message: `the ${label} tab` })
        .toMatch(new RegExp(`^${label}\\s*${count}$`));
    }
    for (const [label, , status] of tabs) {
      await statusTab(page, label).click();
      expect(await statusTab(page, label).getAttribute('aria-selected')).toBe('true');
      const expected = all.filter((task) => !status || task.status === status);
      for (const task of expected) {
        await expectVisible(taskCard(page, task.title), `${task.title} under ${label}`);
      }
      for (const task of all.filter((t) => !expected.includes(t))) {
        await expectHidden(taskCard(page, task.title), `${task.title} under ${label}`);
      }
      expect(await page.getByRole('tabpanel').getByRole('link').count()).toBe(expected.length);
    }

    // The arrow keys move between the tabs and select them.
    await statusTab(page, 'All').click();
    await page.keyboard.press('ArrowRight');
    expect(await statusTab(page, 'Pending').getAttribute('aria-selected')).toBe('true');
    await expectHidden(taskCard(page, done.title), 'the completed task under Pending');
    await page.keyboard.press('ArrowLeft');
    expect(await statusTab(page, 'All').getAttribute('aria-selected')).toBe('true');

    // A card shows its badges, the checklist count, the dates and the assignees.
    const card = taskCard(page, busy.title);
    await expectVisible(card, 'the in-progress card');
    const text = await card.innerText();
    expect(text).toContain('In Progress');
    expect(text).toContain('Low');
    expect(text).toMatch(/Task Done:?\s*1\s*\/\s*2/);
    expect(text).toContain(shownDate(busy.createdAt));
    expect(text).toContain(shownDate(busy.dueDate));
    await expectVisible(card.getByRole('img', { name: 'Max Member' }), "Max's avatar");
    expect(
      await taskCard(page, pending.title).getByRole('progressbar').getAttribute('aria-valuenow'),
    ).toBe('0');
  });

  it('shows the first 3 assignees on a card, then +N', async () => {
    const more = [];
    for (const name of ['Ava Extra', 'Ben Extra', 'Cai Extra']) {
      more.push(await e2e.api.registerMember(name));
    }
    const people = [mia, max, ...more];
    await e2e.api.createTask(admin.token, {
      title: 'Everyone on it',
      assignedTo: people.map((person) => person.user._id),
      attachments: ['example.com/one', 'example.com/two'],
    });
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/tasks');
    const card = taskCard(page, 'Everyone on it');
    await expectVisible(card, 'the card');
    for (const person of people.slice(0, 3)) {
      await expectVisible(card.getByRole('img', { name: person.user.name }), person.user.name);
    }
    for (const person of people.slice(3)) {
      expect(await card.getByRole('img', { name: person.user.name }).count()).toBe(0);
    }
    await expectVisible(card.getByText('+2', { exact: true }), 'the +2 count');
    // The attachment count shows because there are some.
    expect(await card.innerText()).toMatch(/(^|\s)2(\s|$)/);
  });

  it('edits a task from its card: UPDATE TASK keeps ticked items ticked', async () => {
    let task = await e2e.api.createTask(admin.token, {
      title: 'Edit me',
      description: 'Before the edit.',
      priority: 'Medium',
      assignedTo: [mia.user._id],
      todoChecklist: [{ text: 'Keep this ticked' }, { text: 'Still to do' }],
    });
    task = await e2e.api.tickFirst(mia.token, task, 1);

    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/tasks');
    // The card opens the task's page; its Edit link opens the edit form.
    await taskCard(page, 'Edit me').click();
    await expectPath(page, `/admin/tasks/${task._id}`);
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await expectPath(page, `/admin/tasks/${task._id}/edit`);
    await expectVisible(page.getByRole('button', { name: 'UPDATE TASK' }), 'the edit mode');
    const title = page.getByLabel('Task Title');
    await expect.poll(() => title.inputValue()).toBe('Edit me');
    expect(await page.getByLabel('Description').inputValue()).toBe('Before the edit.');
    expect(await page.getByLabel('Priority').inputValue()).toBe('Medium');
    expect(await page.getByLabel('Due Date').inputValue()).toBe('2031-03-15');

    await title.fill('Edited title');
    await page.getByLabel('Priority').selectOption('High');
    await addEntry(page, 'TODO Checklist', 'A new step');
    await page.getByRole('button', { name: 'UPDATE TASK' }).click();
    await expectToast(page, 'Task Updated Successfully');

    const saved = await e2e.api.getTask(admin.token, task._id);
    expect(saved.title).toBe('Edited title');
    expect(saved.priority).toBe('High');
    expect(saved.todoChecklist.map(({ text, completed }) => ({ text, completed }))).toEqual([
      { text: 'Keep this ticked', completed: true },
      { text: 'Still to do', completed: false },
      { text: 'A new step', completed: false },
    ]);
    expect(saved.status).toBe('In Progress');
  });

  it('keeps a due date on its day in time zones west and east of UTC', async () => {
    // Los Angeles is behind UTC: midnight UTC is the evening before there.
    const west = await e2e.openPage({ token: admin.token, timezoneId: 'America/Los_Angeles' });
    await west.page.goto('/admin/create-task');
    await west.page.getByLabel('Task Title').fill('Due on the 20th');
    await west.page.getByLabel('Description').fill('Whatever the time zone.');
    await west.page.getByLabel('Due Date').fill('2031-05-20');
    await west.page.getByRole('button', { name: 'Add Members' }).click();
    await west.page.getByRole('dialog').getByRole('checkbox', { name: 'Mia Member' }).check();
    await west.page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();
    await addEntry(west.page, 'TODO Checklist', 'Be on time');
    await submitCreate(west.page);
    await expectToast(west.page, 'Task Created Successfully');
    const created = (await e2e.api.listTasks(admin.token)).tasks.find(
      (task) => task.title === 'Due on the 20th',
    );
    expect(created?.dueDate.slice(0, 10)).toBe('2031-05-20');

    await west.page.getByRole('navigation').getByRole('link', { name: 'Manage Tasks' }).click();
    const card = taskCard(west.page, 'Due on the 20th');
    await expectVisible(card, 'the card');
    expect(await card.innerText()).toContain('20th May 2031');
    await card.click();
    await west.page.getByRole('link', { name: 'Edit', exact: true }).click();
    await expect.poll(() => west.page.getByLabel('Due Date').inputValue()).toBe('2031-05-20');
    // Saving without touching the date keeps the day.
    await west.page.getByLabel('Description').fill('Saved again in Los Angeles.');
    await west.page.getByRole('button', { name: 'UPDATE TASK' }).click();
    await expectToast(west.page, 'Task Updated Successfully');
    const saved = await e2e.api.getTask(admin.token, created!._id);
    expect(saved.description).toBe('Saved again in Los Angeles.');
    expect(saved.dueDate.slice(0, 10)).toBe('2031-05-20');

    // Auckland is ahead of UTC: the member reads the same day.
    const east = await e2e.openPage({ token: mia.token, timezoneId: 'Pacific/Auckland' });
    await east.page.goto(`/user/task-details/${created!._id}`);
    await expectVisible(east.page.getByRole('main').getByText('20th May 2031'), 'the due date');
  });

  it('deletes a task after the confirmation and goes back to Manage Tasks', async () => {
    const task = await e2e.api.createTask(admin.token, {
      title: 'Delete me',
      assignedTo: [mia.user._id],
    });
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/tasks');
    await taskCard(page, 'Delete me').click();
    await expectPath(page, `/admin/tasks/${task._id}`);
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await expectPath(page, `/admin/tasks/${task._id}/edit`);
    await expect.poll(() => page.getByLabel('Task Title').inputValue()).toBe('Delete me');

    // The first Delete only asks; Escape keeps the task.
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await expectVisible(page.getByRole('dialog'), 'the confirmation');
    await page.keyboard.press('Escape');
    await expectHidden(page.getByRole('dialog'), 'the closed confirmation');
    expect((await e2e.api.getTask(admin.token, task._id)).title).toBe('Delete me');

    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await expectVisible(dialog.getByText('Are you sure want to delete this task?'), 'the question');
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await expectToast(page, 'Task deleted successfully');
    await expectPath(page, '/admin/tasks');
    await expectVisible(page.getByRole('heading', { name: 'My Task' }), 'the task list');
    await expectHidden(taskCard(page, 'Delete me'), 'the deleted task');
    await expect(e2e.api.getTask(admin.token, task._id)).rejects.toThrow(/404/);
  });
});
