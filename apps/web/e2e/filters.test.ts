import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_PASSWORD, type SignedInUser } from './support/api.js';
import { setupE2E } from './support/e2e.js';
import { expectHidden, expectVisible, signInThroughForm } from './support/ui.js';

/**
 * Finding work: the filter bar narrows the list, the view lives in the URL (a link brings it
 * back) and the back button walks back through the views.
 */
const e2e = setupE2E();

let admin: SignedInUser;
let mia: SignedInUser;

beforeAll(async () => {
  admin = await e2e.api.registerAdmin('Ada Admin');
  mia = await e2e.api.registerMember('Mia Member');
  await e2e.api.createTask(admin.token, {
    title: 'Deploy the API',
    priority: 'High',
    assignedTo: [mia.user._id],
  });
  await e2e.api.createTask(admin.token, {
    title: 'Deployment checklist review',
    priority: 'Low',
    assignedTo: [mia.user._id],
  });
  await e2e.api.createTask(admin.token, {
    title: 'Write the docs',
    priority: 'High',
    assignedTo: [mia.user._id],
  });
});

function card(page: Page, title: string) {
  return page.getByRole('tabpanel').getByRole('link', { name: title, exact: true });
}

function query(page: Page): URLSearchParams {
  return new URL(page.url()).searchParams;
}

describe('filters on the task list', () => {
  it('narrow the list, live in the URL, and come back with the back button and a link', async () => {
    const { page } = await e2e.openPage({ token: admin.token });
    await page.goto('/admin/tasks');
    await expectVisible(card(page, 'Write the docs'), 'every task');

    // A search: prefix matching, once typing pauses.
    await page.getByRole('searchbox', { name: 'Search' }).fill('deplo');
    await expect.poll(() => query(page).get('q')).toBe('deplo');
    await expectHidden(card(page, 'Write the docs'), 'the task the search leaves out');
    await expectVisible(card(page, 'Deploy the API'), 'a match');
    await expectVisible(card(page, 'Deployment checklist review'), 'another match');

    // A priority on top of it.
    await page.getByRole('group', { name: 'Priority' }).getByText('High', { exact: true }).click();
    await expect.poll(() => query(page).get('priority')).toBe('High');
    await expectHidden(card(page, 'Deployment checklist review'), 'the Low task');
    await expectVisible(card(page, 'Deploy the API'), 'the one match');

    // Back: the priority goes, the search stays.
    await page.goBack();
    await expect.poll(() => query(page).get('priority')).toBeNull();
    expect(query(page).get('q')).toBe('deplo');
    await expectVisible(card(page, 'Deployment checklist review'), 'the Low match again');
    await expect
      .poll(() => page.getByRole('searchbox', { name: 'Search' }).inputValue())
      .toBe('deplo');

    // A link to a view opens that view.
    const { page: other } = await e2e.openPage({ token: admin.token });
    await other.goto('/admin/tasks?q=deplo&priority=High');
    await expectVisible(card(other, 'Deploy the API'), 'the linked view');
    await expectHidden(card(other, 'Deployment checklist review'), 'what the link filters out');
    expect(await other.getByRole('searchbox', { name: 'Search' }).inputValue()).toBe('deplo');
  });

  it('bring a link opened while signed out back after signing in', async () => {
    const { page } = await e2e.openPage();
    await page.goto('/admin/tasks?q=deplo&priority=High');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/login');
    await page.getByLabel('Email Address').fill(admin.user.email);
    await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'LOGIN' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/admin/tasks');
    expect(query(page).get('q')).toBe('deplo');
    expect(query(page).get('priority')).toBe('High');
    await expectVisible(card(page, 'Deploy the API'), 'the linked view');
    await expectHidden(card(page, 'Deployment checklist review'), 'what the link filters out');
    // Signing in from the sign-in page itself still opens the dashboard (spec).
    const fresh = await e2e.openPage();
    await signInThroughForm(fresh.page, admin.user.email, TEST_PASSWORD);
    await expect.poll(() => new URL(fresh.page.url()).pathname).toBe('/admin/dashboard');
  });

  it('keep the status tab in the URL too', async () => {
    const { page } = await e2e.openPage({ token: mia.token });
    await page.goto('/user/tasks?priority=High');
    await expectVisible(card(page, 'Deploy the API'), 'the High tasks');
    await page.getByRole('tab', { name: /^Completed\b/ }).click();
    await expect.poll(() => query(page).get('status')).toBe('Completed');
    await expectHidden(card(page, 'Deploy the API'), 'pending tasks on the Completed tab');
    await page.goBack();
    await expect.poll(() => query(page).get('status')).toBeNull();
    await expectVisible(card(page, 'Deploy the API'), 'the All tab again');
    expect(query(page).get('priority')).toBe('High');
  });
});
