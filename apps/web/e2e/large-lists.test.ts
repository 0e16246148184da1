import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SignedInUser } from './support/api.js';
import { expectNoSeriousA11yViolations } from './support/axe.js';
import { setupE2E } from './support/e2e.js';
import { expectHidden, expectToast, expectVisible } from './support/ui.js';

/**
 * Long lists stay light: 350 tasks and 150 team members load page by page as the person scrolls,
 * only the cards near the screen are in the page, every one of them is reached exactly once, and
 * the user picker finds members beyond its first page by search and by scrolling.
 */
const e2e = setupE2E();

const TASK_COUNT = 350;
const MEMBER_COUNT = 150;
/** Parallel requests per batch while filling the server. */
const BATCH = 20;
/** Rendered cards at most: the rows on a 900 px screen and a few either side, not the list. */
const MAX_CARDS_IN_PAGE = 60;

const taskTitle = (n: number) => `Bulk task ${String(n).padStart(3, '0')}`;
const memberName = (n: number) => `Team member ${String(n).padStart(3, '0')}`;

let admin: SignedInUser;
let mia: SignedInUser;
/**
 * Every task's title in the server's order, newest first. Read back rather than assumed from the
 * numbers: tasks created in parallel (or in the same millisecond, ties broken by a random id)
 * need not list in the order of their numbers.
 */
let everyTaskNewestFirst: string[] = [];

/** All of a person's task titles, page after page, as GET /api/tasks lists them. */
async function listedTaskTitles(token: string): Promise<string[]> {
  const titles: string[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const page: { tasks: { title: string }[]; nextCursor: string | null } = await e2e.api.request(
      'GET',
      `/api/tasks?limit=100${query}`,
      token,
    );
    titles.push(...page.tasks.map((task) => task.title));
    cursor = page.nextCursor;
  } while (cursor);
  return titles;
}

async function inBatches(count: number, create: (n: number) => Promise<unknown>) {
  for (let start = 1; start <= count; start += BATCH) {
    const batch = [];
    for (let n = start; n < start + BATCH && n <= count; n += 1) batch.push(create(n));
    await Promise.all(batch);
  }
}

beforeAll(async () => {
  admin = await e2e.api.registerAdmin('Ada Admin');
  mia = await e2e.api.registerMember('Mia Member');
  const create = (n: number) =>
    e2e.api.createTask(admin.token, { title: taskTitle(n), assignedTo: [mia.user._id] });
  await inBatches(TASK_COUNT, create);
  await inBatches(MEMBER_COUNT, (n) => e2e.api.registerMember(memberName(n)));
  everyTaskNewestFirst = await listedTaskTitles(admin.token);
  // Mia is assigned every task, so her list is the admin's, in the same order.
  expect(await listedTaskTitles(mia.token)).toEqual(everyTaskNewestFirst);
  expect([...everyTaskNewestFirst].sort()).toEqual(
    Array.from({ length: TASK_COUNT }, (_, index) => taskTitle(index + 1)),
  );
}, 120_000);

interface RenderedCard {
  position: number;
  setSize: number;
  title: string;
}

/** The cards in the page right now: their place in the list, the list's size and their name. */
function renderedCards(list: Locator): Promise<RenderedCard[]> {
  return list.evaluate((element) =>
    Array.from(element.querySelectorAll('[role="listitem"]'), (item) => ({
      position: Number(item.getAttribute('aria-posinset')),
      setSize: Number(item.getAttribute('aria-setsize')),
      // A task card's title is its heading; a member card's name is its first paragraph.
      title: (item.querySelector('h2, p')?.textContent ?? '').trim(),
    })),
  );
}

/**
 * Scrolls the window to the bottom again and again (each time a next page can load) until
 * `last` is on screen, checking at every step that few cards are in the page and none twice.
 */
async function scrollToTheEnd(page: Page, list: Locator, last: Locator) {
  for (let step = 0; step < 80; step += 1) {
    const cards = await renderedCards(list);
    expect(cards.length, 'cards in the page at once').toBeLessThan(MAX_CARDS_IN_PAGE);
    const titles = cards.map((card) => card.title);
    expect(new Set(titles).size, `a card twice in ${titles.join(', ')}`).toBe(titles.length);
    if (await last.isVisible()) return;
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForTimeout(150);
  }
  throw new Error('the last card never came into view');
}

/**
 * From the bottom back to the top a screen at a time, every card the list ever renders: each
 * place holds one name and each name one place, so nothing is missing or shown twice.
 */
async function everyCardOnTheWayUp(page: Page, list: Locator): Promise<Map<number, string>> {
  const byPosition = new Map<number, string>();
  for (let step = 0; step < 400; step += 1) {
    for (const card of await renderedCards(list)) {
      const known = byPosition.get(card.position);
      expect(known ?? card.title, `the card at place ${card.position}`).toBe(card.title);
      byPosition.set(card.position, card.title);
    }
    const top = await page.evaluate(() => window.scrollY);
    if (top === 0) return byPosition;
    // A screen at a time: the rows rendered beyond each edge overlap the previous step's.
    await page.evaluate(() => window.scrollBy(0, -window.innerHeight));
    await page.waitForTimeout(50);
  }
  throw new Error('the top of the list was never reached');
}

function expectEachOnce(byPosition: Map<number, string>, expected: string[]) {
  expect([...byPosition.keys()].sort((a, b) => a - b)).toEqual(
    expected.map((_, index) => index + 1),
  );
  expect([...byPosition.values()].sort()).toEqual([...expected].sort());
}

async function checkTaskList(page: Page) {
  const panel = page.getByRole('tabpanel');
  const [newest] = everyTaskNewestFirst;
  await expectVisible(panel.getByRole('link', { name: newest, exact: true }), 'the newest task');
  await expect
    .poll(() => page.getByRole('tab', { name: /^All\b/ }).innerText())
    .toMatch(new RegExp(`^All\\s*${TASK_COUNT}$`));
  await expect
    .poll(() => page.getByRole('tab', { name: /^Pending\b/ }).innerText())
    .toMatch(new RegExp(`^Pending\\s*${TASK_COUNT}$`));
  const first = await renderedCards(panel);
  expect(first.length).toBeLessThan(MAX_CARDS_IN_PAGE);
  expect(first[0]).toEqual({ position: 1, setSize: TASK_COUNT, title: newest });

  const oldestTitle = everyTaskNewestFirst.at(-1)!;
  const oldest = panel.getByRole('link', { name: oldestTitle, exact: true });
  await scrollToTheEnd(page, panel, oldest);
  const last = (await renderedCards(panel)).at(-1);
  expect(last).toEqual({ position: TASK_COUNT, setSize: TASK_COUNT, title: oldestTitle });
  expectEachOnce(await everyCardOnTheWayUp(page, panel), everyTaskNewestFirst);
}

// Scrolling through hundreds of cards and running axe over them takes a while on a slow machine.
describe('a long task list', { timeout: 120_000 }, () => {
  it('Manage Tasks loads 350 tasks as the admin scrolls, with few cards in the page', async () => {
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/tasks');
    await checkTaskList(page);
    await expectNoSeriousA11yViolations(page, 'Manage Tasks with 350 tasks');
  });

  it('moves the keyboard focus card by card past the cards first rendered', async () => {
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/tasks');
    const panel = page.getByRole('tabpanel');
    const newest = panel.getByRole('link', { name: everyTaskNewestFirst[0], exact: true });
    await expectVisible(newest, 'the newest task');
    const rendered = (await renderedCards(panel)).length;
    const focusedCard = () =>
      page.evaluate(() => {
        const item = document.activeElement?.closest('[role="listitem"]');
        return {
          position: Number(item?.getAttribute('aria-posinset')),
          title: document.activeElement?.querySelector('h2')?.textContent,
        };
      });
    await newest.focus();
    const steps = rendered + 10;
    for (let position = 2; position <= steps + 1; position += 1) {
      // Focusing a card below the screen scrolls it into view, and only when the list handles
      // that scroll (a frame later, much later on a busy machine) are the next rows rendered. A
      // person's next Tab comes after that; back-to-back presses can outrun it and leave the list.
      // So each Tab waits for the card it should reach: a list that never renders it still fails.
      await panel
        .locator(`[role="listitem"][aria-posinset="${position}"]`)
        .getByRole('link')
        .waitFor({ state: 'attached' });
      await page.keyboard.press('Tab');
      await expect.poll(async () => (await focusedCard()).position).toBe(position);
    }
    const focused = await focusedCard();
    expect(focused).toEqual({ position: steps + 1, title: everyTaskNewestFirst[steps] });
    // Enter opens the focused card, as a link does: the task's own page.
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => /^\/admin\/tasks\/[^/]+$/.test(url.pathname));
    await expectVisible(
      page.getByRole('heading', { level: 1, name: focused.title }),
      'the focused task',
    );
  });

  it("My Tasks loads the member's 350 tasks the same way", async () => {
    const { page } = await e2e.openPage({ token: mia.token });
    await page.goto('/user/tasks');
    await checkTaskList(page);
    await expectNoSeriousA11yViolations(page, 'My Tasks with 350 tasks');
  });
});

/** Everyone, by name, as the team page and the picker list them: the admin too (issue 18). */
const everyMemberByName = [
  'Ada Admin',
  'Mia Member',
  ...Array.from({ length: MEMBER_COUNT }, (_, index) => memberName(index + 1)),
];

describe('a large team', { timeout: 120_000 }, () => {
  it('Team Members loads all 152 people as the admin scrolls, with few cards in the page', async () => {
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/users');
    const list = page.getByRole('list', { name: 'Team members' });
    await expectVisible(list.getByText('Mia Member'), 'the first member');
    const last = list.getByText(memberName(MEMBER_COUNT), { exact: true });
    await scrollToTheEnd(page, list, last);
    const cards = await renderedCards(list);
    expect(cards.at(-1)).toEqual({
      position: everyMemberByName.length,
      setSize: everyMemberByName.length,
      title: memberName(MEMBER_COUNT),
    });
    expectEachOnce(await everyCardOnTheWayUp(page, list), everyMemberByName);
    await expectNoSeriousA11yViolations(page, 'Team Members with 152 people');
  });

  it('the user picker finds members beyond its first page by search and by scrolling', async () => {
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/create-task');
    await page.getByLabel('Task Title').fill('Picked from a large team');
    await page.getByLabel('Description').fill('Assignees found by search.');
    await page.getByLabel('Due Date').fill('2031-08-01');
    await page.getByRole('textbox', { name: 'TODO Checklist' }).fill('One step');
    await page
      .getByRole('group', { name: 'TODO Checklist' })
      .getByRole('button', { name: 'Add', exact: true })
      .click();

    await page.getByRole('button', { name: 'Add Members' }).click();
    const dialog = page.getByRole('dialog', { name: 'Select Users' });
    const results = dialog.getByRole('list', { name: 'Users' });
    await expectVisible(results.getByRole('checkbox', { name: 'Mia Member' }), 'the first page');
    expect(await results.getByRole('checkbox').count()).toBeLessThan(everyMemberByName.length);

    const search = dialog.getByRole('searchbox', { name: 'Search users' });
    await search.fill('member 14');
    await expectHidden(
      results.getByRole('checkbox', { name: 'Mia Member' }),
      'Mia, who does not match',
    );
    await results.getByRole('checkbox', { name: memberName(145) }).check();
    // Enter in the search box searches; it does not send the task form.
    await search.fill('MEMBER 150');
    await search.press('Enter');
    await results.getByRole('checkbox', { name: memberName(MEMBER_COUNT) }).check();
    const selected = dialog.getByRole('list', { name: 'Selected' });
    expect(await selected.getByRole('checkbox', { name: memberName(145) }).isChecked()).toBe(true);
    await expectVisible(dialog.getByText('2 selected'), 'the count of ticked people');
    await expectNoSeriousA11yViolations(page, 'the user picker after two searches');

    // Without a search, scrolling the list loads page after page up to the last member.
    await search.fill('');
    await expectVisible(results.getByRole('checkbox', { name: 'Mia Member' }), 'the first page');
    const lastMember = results.getByRole('checkbox', { name: memberName(MEMBER_COUNT) });
    for (let step = 0; step < 20 && !(await lastMember.isVisible()); step += 1) {
      await results.evaluate((list) => {
        const box = list.parentElement!;
        box.scrollTop = box.scrollHeight;
      });
      await page.waitForTimeout(200);
    }
    await expectVisible(lastMember, 'the last member in the picker');
    expect(await lastMember.isChecked()).toBe(true);
    expect(await results.getByRole('checkbox').count()).toBe(everyMemberByName.length);

    await dialog.getByRole('button', { name: 'Done' }).click();
    const assigned = page.getByRole('group', { name: 'Assigned To' });
    await expectVisible(assigned.getByRole('img', { name: memberName(145) }), 'the first pick');
    await expectVisible(assigned.getByRole('img', { name: memberName(150) }), 'the second pick');
    await page.getByRole('button', { name: 'CREATE TASK' }).click();
    await expectToast(page, 'Task Created Successfully');
    const { tasks } = await e2e.api.listTasks(admin.token);
    const created = tasks.find((task) => task.title === 'Picked from a large team');
    expect(created?.assignedTo.map((person) => person.name)).toEqual([
      memberName(145),
      memberName(150),
    ]);
  });
});
