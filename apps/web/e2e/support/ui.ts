import dayjs from 'dayjs';
import advancedFormat from 'dayjs/plugin/advancedFormat.js';
import utc from 'dayjs/plugin/utc.js';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

dayjs.extend(advancedFormat);
dayjs.extend(utc);

/** Waits until the page is at `path` (pathname only), e.g. after a redirect. */
export async function expectPath(page: Page, path: string): Promise<void> {
  try {
    await page.waitForURL((url) => url.pathname === path, { timeout: 10_000 });
  } catch {
    throw new Error(
      `expected to be at ${path}, but the page is at ${new URL(page.url()).pathname}`,
    );
  }
}

/**
 * After the server has ended this page's session: clicks `next` (the person's next step, whose
 * request is refused) and expects the sign-in page. The app may have gone there on its own
 * first, as its live stream is closed and the reconnection refused: then there is nothing left
 * to click, and that is as right. The click is settled before this returns, either way: one
 * left waiting would fire on the same button once the person has signed in again.
 */
export async function expectSignedOutAfter(page: Page, next: Locator): Promise<void> {
  const atSignIn = () => new URL(page.url()).pathname === '/login';
  if (!atSignIn()) {
    try {
      await next.click({ timeout: 5_000 });
    } catch (error) {
      if (!atSignIn()) throw error;
    }
  }
  await expectPath(page, '/login');
}

/** Waits for an element to be visible, failing with what was looked for. */
export async function expectVisible(locator: Locator, what = String(locator)): Promise<void> {
  try {
    await locator.first().waitFor({ state: 'visible', timeout: 10_000 });
  } catch {
    throw new Error(`expected to see ${what}`);
  }
}

/** Waits for an element to disappear (or never to have been there). */
export async function expectHidden(locator: Locator, what = String(locator)): Promise<void> {
  try {
    await locator.first().waitFor({ state: 'hidden', timeout: 10_000 });
  } catch {
    throw new Error(`expected not to see ${what}`);
  }
}

/** A toast with exactly this text (success toasts last 2 s, so look right after the action). */
export async function expectToast(page: Page, text: string): Promise<void> {
  await expectVisible(page.getByText(text, { exact: true }), `the toast '${text}'`);
}

/** Signs in through the /login form, as a person does. */
export async function signInThroughForm(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Email Address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'LOGIN' }).click();
}

/** The side menu (a navigation landmark) of the signed-in layout. */
export function sideMenu(page: Page): Locator {
  return page.getByRole('navigation');
}

/**
 * The number on a dashboard stat card ('Total Tasks', …): the cards are a description list, each
 * label a term and its number the definition next to it.
 */
export async function statCardValue(page: Page, label: string): Promise<string> {
  const card = page
    .getByRole('main')
    .locator('dl > div')
    .filter({ has: page.getByRole('term').filter({ hasText: label }) });
  return (await card.getByRole('definition').innerText()).trim();
}

/** Greeting for an hour, as the spec defines it (12, 17, 20). */
export function greetingFor(hour: number): string {
  if (hour < 12) return 'Good Morning';
  if (hour < 17) return 'Good Afternoon';
  if (hour < 20) return 'Good Evening';
  return 'Good Night';
}

/** Dates as the app shows them: 'Do MMM YYYY', e.g. '1st Jan 2025' (pages run in UTC). */
export function shownDate(value: string | Date): string {
  return dayjs.utc(value).format('Do MMM YYYY');
}

/** Reads a text input's current value. */
export async function valueOf(locator: Locator): Promise<string> {
  return locator.inputValue();
}

/** Polls until `read` returns `expected`, for things the page updates without a navigation. */
export async function eventually<T>(read: () => Promise<T>, expected: T, what: string) {
  await expect.poll(read, { timeout: 10_000, message: what }).toEqual(expected);
}

/** A 1×1 PNG, a real image the server accepts and re-encodes. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
