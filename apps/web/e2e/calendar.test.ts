import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiTask, SignedInUser } from './support/api.js';
import { setupE2E } from './support/e2e.js';
import { adminAndMemberWithTasks } from './support/team-with-tasks.js';
import { expectPath, expectVisible } from './support/ui.js';

/** The calendar: a month of tasks on their due days, overdue ones in red, a click opens one. */
const e2e = setupE2E();

let admin: SignedInUser;
let mia: SignedInUser;
let late: ApiTask;
let april: ApiTask;

beforeAll(async () => {
  const team = await adminAndMemberWithTasks(e2e.api, [
    { title: 'Late invoice', dueDate: '2021-03-10' },
    { title: 'March planning', dueDate: '2021-03-22', done: true },
    { title: 'April review', dueDate: '2021-04-02' },
  ]);
  ({ admin, member: mia } = team);
  late = team.tasks[0]!;
  april = team.tasks[2]!;
});

/** The admin's dashboard with the command palette open (Ctrl+K), and its search box. */
async function paletteOnTheDashboard() {
  const { page } = await e2e.openPage({ token: admin.token });
  await page.goto('/admin/dashboard');
  await expectVisible(page.getByRole('heading', { level: 1 }), 'the dashboard');
  await page.keyboard.press('Control+k');
  return { page, input: page.getByRole('combobox', { name: 'Search tasks and pages' }) };
}

describe('the calendar', () => {
  it('shows a month by due date, overdue in red, and opens a task', async () => {
    const { page } = await e2e.openPage({ token: mia.token });
    await page.goto('/user/calendar?month=2021-03');
    await expectVisible(page.getByRole('heading', { name: 'Calendar: March 2021' }), 'March');
    const day10 = page.getByRole('cell', { name: 'Wednesday 10 March' });
    await expectVisible(day10.getByRole('link', { name: /Late invoice/ }), 'the task on the 10th');
    expect(await day10.getByRole('link').getAttribute('data-due')).toBe('overdue');
    const day22 = page.getByRole('cell', { name: 'Monday 22 March' });
    expect(await day22.getByRole('link', { name: 'March planning' }).getAttribute('data-due')).toBe(
      'none',
    );
    // March's last row runs to Sunday 4 April: the neighbouring days show their tasks too.
    const april2 = page.getByRole('cell', { name: 'Friday 2 April' });
    await expectVisible(april2.getByRole('link', { name: /April review/ }), 'the task on 2 April');

    await page.getByRole('button', { name: 'Next month' }).click();
    await expectVisible(page.getByRole('heading', { name: 'Calendar: April 2021' }), 'April');
    await expectVisible(page.getByRole('link', { name: /April review/ }), 'the April task');
    await page.goBack();
    await expectVisible(page.getByRole('link', { name: /Late invoice/ }), 'March again');

    await page.getByRole('link', { name: /Late invoice/ }).click();
    await expectPath(page, `/user/task-details/${late._id}`);
  });

  it('opens a task on the admin task page', async () => {
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/calendar?month=2021-03');
    await page.getByRole('link', { name: /Late invoice/ }).click();
    await expectPath(page, `/admin/tasks/${late._id}`);
    await page.getByRole('link', { name: 'Edit' }).click();
    await expectPath(page, `/admin/tasks/${late._id}/edit`);
    await expectVisible(page.getByRole('heading', { name: 'Update Task' }), 'the edit form');
    expect(await page.getByLabel('Task Title').inputValue()).toBe('Late invoice');
  });

  it('is a command palette away (Ctrl+K): a task by search, or a page', async () => {
    const { page, input } = await paletteOnTheDashboard();
    await input.fill('invoi');
    await expectVisible(page.getByRole('option', { name: /Late invoice/ }), 'the task found');
    await page.keyboard.press('Enter');
    await expectPath(page, `/admin/tasks/${late._id}`);
    await page.keyboard.press('Control+k');
    await input.fill('calendar');
    await page.keyboard.press('Enter');
    await expectPath(page, '/admin/calendar');
  });

  it("palette: Enter opens what matches the words typed, never the last search's task", async () => {
    const { page, input } = await paletteOnTheDashboard();
    await input.fill('invoi');
    await expectVisible(page.getByRole('option', { name: /Late invoice/ }), 'the first search');
    // New words and Enter at once, before their search has answered: it waits for it.
    await input.fill('april rev');
    await page.keyboard.press('Enter');
    await expectPath(page, `/admin/tasks/${april._id}`);
  });

  it('palette: Escape gives focus back to where it was', async () => {
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/tasks');
    const search = page.getByRole('searchbox', { name: 'Search' });
    await search.focus();
    await page.keyboard.press('Control+k');
    await expectVisible(page.getByRole('combobox', { name: 'Search tasks and pages' }), 'palette');
    await page.keyboard.press('Escape');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('type')))
      .toBe('search');
    expect(await search.evaluate((element) => element === document.activeElement)).toBe(true);
  });
});
