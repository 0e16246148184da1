import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiTask, SignedInUser } from './support/api.js';
import { setupE2E } from './support/e2e.js';
import { expectVisible } from './support/ui.js';

/**
 * The board: a column per status; a card moves with the mouse (drag and drop) or the keyboard
 * (its "Move to..." menu), through the status endpoint; a refused move snaps back and says why.
 */
const e2e = setupE2E();

let admin: SignedInUser;
let mia: SignedInUser;
let fresh: ApiTask;
let other: ApiTask;
let done: ApiTask;

beforeAll(async () => {
  admin = await e2e.api.registerAdmin('Ada Admin');
  mia = await e2e.api.registerMember('Mia Member');
  fresh = await e2e.api.createTask(admin.token, {
    title: 'Fresh task',
    assignedTo: [mia.user._id],
    todoChecklist: [{ text: 'One' }, { text: 'Two' }],
  });
  other = await e2e.api.createTask(admin.token, {
    title: 'Keyboard task',
    assignedTo: [mia.user._id],
  });
  done = await e2e.api.createTask(admin.token, {
    title: 'Finished task',
    assignedTo: [mia.user._id],
    todoChecklist: [{ text: 'Only', completed: true }],
  });
});

function column(page: Page, status: string) {
  return page.getByRole('region', { name: new RegExp(`^${status}`) });
}

function cardIn(page: Page, status: string, title: string) {
  return column(page, status).getByRole('listitem').filter({ hasText: title });
}

describe('the board', () => {
  it('moves a card by dragging it to another column (a started task stays at 0 %)', async () => {
    const { page } = await e2e.openPage({ token: mia.token });
    await page.goto('/user/board');
    await expectVisible(cardIn(page, 'Pending', 'Fresh task'), 'the card in Pending');
    await cardIn(page, 'Pending', 'Fresh task').dragTo(column(page, 'In Progress'));
    await expectVisible(cardIn(page, 'In Progress', 'Fresh task'), 'the card in In Progress');
    await expect
      .poll(async () => (await e2e.api.getTask(mia.token, fresh._id)).status)
      .toBe('In Progress');
    expect((await e2e.api.getTask(mia.token, fresh._id)).progress).toBe(0);
    // After a reload the card is still where it was put.
    await page.reload();
    await expectVisible(cardIn(page, 'In Progress', 'Fresh task'), 'the card after a reload');
  });

  it('moves a card with the keyboard through its "Move to..." menu', async () => {
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/board');
    await expectVisible(cardIn(page, 'Pending', 'Keyboard task'), 'the card in Pending');
    await page.getByRole('button', { name: 'Move to... (Keyboard task)' }).focus();
    await page.keyboard.press('Enter');
    await expectVisible(page.getByRole('menuitem', { name: 'Move to In Progress' }), 'the menu');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    // Its open checklist items would all be ticked: asked first, nothing moved yet.
    const dialog = page.getByRole('dialog', { name: 'Move to Completed?' });
    await expectVisible(dialog, 'the question before ticking its open items');
    expect(await dialog.innerText()).toMatch(/ticks its \d+ open checklist items?/);
    expect((await e2e.api.getTask(admin.token, other._id)).status).toBe('Pending');
    await dialog.getByRole('button', { name: 'Move to Completed' }).click();
    await expectVisible(cardIn(page, 'Completed', 'Keyboard task'), 'the card in Completed');
    await expect
      .poll(async () => (await e2e.api.getTask(admin.token, other._id)).status)
      .toBe('Completed');
    // Focus follows the card to its new column: the keyboard goes on from there.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Move to... (Keyboard task)');
  });

  it('snaps a refused move back and says why', async () => {
    const session = await e2e.openPage({ token: admin.token });
    const { page } = session;
    session.expectFailedRequest({ path: `/api/tasks/${done._id}/status`, status: 400 });
    await page.goto('/admin/board');
    await expectVisible(cardIn(page, 'Completed', 'Finished task'), 'the card in Completed');
    await page.getByRole('button', { name: 'Move to... (Finished task)' }).click();
    await page.getByRole('menuitem', { name: 'Move to In Progress' }).click();
    await expectVisible(page.getByRole('status').filter({ hasText: /untick/i }), 'the reason');
    await expectVisible(cardIn(page, 'Completed', 'Finished task'), 'the card back in Completed');
    expect((await e2e.api.getTask(admin.token, done._id)).status).toBe('Completed');
  });

  it('narrows every column with the filter bar, kept in the URL: Back brings the whole board', async () => {
    await e2e.api.createTask(admin.token, { title: 'Quokka survey', assignedTo: [mia.user._id] });
    await e2e.api.createTask(admin.token, { title: 'Wombat census', assignedTo: [mia.user._id] });
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/board');
    await expectVisible(cardIn(page, 'Pending', 'Wombat census'), 'every card at first');
    await page.getByRole('searchbox', { name: 'Search' }).fill('quokka');
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('quokka');
    await expectVisible(cardIn(page, 'Pending', 'Quokka survey'), 'the match');
    await expect.poll(() => cardIn(page, 'Pending', 'Wombat census').count()).toBe(0);
    for (const status of ['In Progress', 'Completed']) {
      await expect.poll(() => column(page, status).getByRole('listitem').count()).toBe(0);
    }
    // A link with the filter opens the same view; Back leaves it for the whole board.
    const shared = await e2e.openPage({ token: admin.token });
    await shared.page.goto('/admin/board?q=quokka');
    await expectVisible(cardIn(shared.page, 'Pending', 'Quokka survey'), 'the linked view');
    expect(await cardIn(shared.page, 'Pending', 'Wombat census').count()).toBe(0);
    await page.goBack();
    await expect.poll(() => new URL(page.url()).search).toBe('');
    await expectVisible(cardIn(page, 'Pending', 'Wombat census'), 'every card again');
  });

  it('on a phone, shows the columns side by side, scrolling sideways', async () => {
    const { page } = await e2e.openPage({ token: admin.token, width: 390, height: 800 });
    await page.goto('/admin/board');
    await expectVisible(column(page, 'Pending'), 'the first column');
    const boxes = await Promise.all(
      ['Pending', 'In Progress', 'Completed'].map((status) => column(page, status).boundingBox()),
    );
    const [pending, inProgress] = boxes;
    // One row: the second column starts where the first ends, its edge in view.
    expect(inProgress!.y).toBe(pending!.y);
    expect(inProgress!.x).toBeGreaterThan(pending!.x + pending!.width - 1);
    expect(inProgress!.x).toBeLessThan(390);
    // The page itself does not scroll sideways; the row of columns does.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
  });
});
