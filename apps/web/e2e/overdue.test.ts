import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiTask, SignedInUser } from './support/api.js';
import { setupE2E } from './support/e2e.js';
import { adminAndMemberWithTasks } from './support/team-with-tasks.js';
import { expectPath, expectVisible, statCardValue } from './support/ui.js';

/**
 * Overdue work stands out: a red date and an "Overdue" badge on cards, on the task page and in
 * Recent Tasks; the dashboards count it on a fifth card that opens the filtered list.
 */
const e2e = setupE2E();

let admin: SignedInUser;
let mia: SignedInUser;
let late: ApiTask;

beforeAll(async () => {
  const team = await adminAndMemberWithTasks(e2e.api, [
    { title: 'Late report', dueDate: '2021-02-01' },
    { title: 'Late but done', dueDate: '2021-02-01', done: true },
    { title: 'Future plan', dueDate: '2039-02-01' },
  ]);
  ({ admin, member: mia } = team);
  late = team.tasks[0]!;
});

describe('overdue tasks', () => {
  it('are marked on cards, on the task page, and only when still open', async () => {
    const { page } = await e2e.openPage({ token: mia.token });
    await page.goto('/user/tasks');
    const lateCard = page.getByRole('link', { name: 'Late report', exact: true });
    await expectVisible(lateCard, 'the late card');
    expect(await lateCard.innerText()).toContain('Overdue');
    // The date is red: Tailwind's red-700 (oklch, hue ~27), unlike an open task's date.
    const colourOf = (title: string) =>
      page
        .getByRole('link', { name: title, exact: true })
        .locator('[data-due]')
        .evaluate((element) => getComputedStyle(element).color);
    expect(await colourOf('Late report')).toMatch(/^oklch\(0\.5\d* 0\.2\d* 2\d(\.\d+)?\)$/);
    expect(await colourOf('Future plan')).not.toBe(await colourOf('Late report'));
    expect(
      await page.getByRole('link', { name: 'Late but done', exact: true }).innerText(),
    ).not.toContain('Overdue');
    expect(
      await page.getByRole('link', { name: 'Future plan', exact: true }).innerText(),
    ).not.toContain('Overdue');

    await lateCard.click();
    await expectPath(page, `/user/task-details/${late._id}`);
    await expectVisible(page.getByText('Overdue', { exact: true }), 'the badge on the task page');
  });

  it('are counted on the dashboard, whose card opens the filtered list', async () => {
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/dashboard');
    await expect.poll(() => statCardValue(page, 'Overdue Tasks').catch(() => '')).toBe('1');
    await expectVisible(
      page.getByRole('row').filter({ hasText: 'Late report' }).getByText('Overdue'),
      'the badge in Recent Tasks',
    );
    await page.getByRole('link', { name: '1 overdue: open the list' }).click();
    await expectPath(page, '/admin/tasks');
    expect(new URL(page.url()).searchParams.get('due')).toBe('overdue');
    await expectVisible(page.getByRole('link', { name: 'Late report', exact: true }), 'the task');
    await expect.poll(() => page.getByRole('tabpanel').getByRole('link').count()).toBe(1);
  });
});
