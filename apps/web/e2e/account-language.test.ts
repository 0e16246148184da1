import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { TEST_PASSWORD, type ApiUser, type SignedInUser } from './support/api.js';
import { setupE2E } from './support/e2e.js';
import { expectPath, expectVisible, signInThroughForm } from './support/ui.js';

/**
 * The language lives on the account (docs/decisions/014): chosen on the profile it is saved
 * there, it follows the person to another browser, and an account without one learns the
 * language the person's browser speaks, so the server's e-mails speak it too.
 */
const e2e = setupE2E();

/** The account's language as the server keeps it (the person's own profile). */
async function accountLanguage({ token }: SignedInUser): Promise<string | null | undefined> {
  const profile = await e2e.api.request<ApiUser & { language?: string | null }>(
    'GET',
    '/api/auth/profile',
    token,
  );
  return profile.language;
}

const htmlLang = (page: Page) => page.evaluate(() => document.documentElement.lang);

describe("the account's language", () => {
  it('chosen on the profile, is saved on the account and follows the person to another browser', async () => {
    const mia = await e2e.api.registerMember('Mia Member', undefined, { language: 'en' });
    const { page } = await e2e.openPage({ token: mia.token });
    await page.goto('/profile');
    await expectVisible(page.getByRole('heading', { name: 'Profile' }), 'the profile page');
    await page.getByLabel('Language of the app').selectOption('de');
    await expectVisible(page.getByRole('heading', { name: 'Profil' }), 'the profile in German');
    await expect.poll(() => accountLanguage(mia)).toBe('de');

    // Another browser that speaks English, nothing remembered: signing in brings German.
    const other = await e2e.openPage({ locale: 'en-US' });
    await signInThroughForm(other.page, mia.user.email, TEST_PASSWORD);
    await expectPath(other.page, '/user/dashboard');
    await expect.poll(() => htmlLang(other.page)).toBe('de');
    const menu = other.page.getByRole('navigation', { name: 'Hauptmenü' });
    await expectVisible(menu.getByRole('link', { name: 'Meine Aufgaben' }), 'the menu in German');
    expect(await other.page.evaluate(() => localStorage.getItem('language'))).toBe('de');
    // Following the account saved nothing back: it still says German.
    expect(await accountLanguage(mia)).toBe('de');
  });

  it('without one yet, learns the language of the browser the person signs in from', async () => {
    const max = await e2e.api.registerMember('Max Mitglied', undefined, { language: null });
    expect(await accountLanguage(max)).toBeNull();
    const { page } = await e2e.openPage({ locale: 'de-DE' });
    await page.goto('/login');
    // The browser speaks German: so does the sign-in form.
    await page.getByLabel('E-Mail-Adresse').fill(max.user.email);
    await page.getByLabel('Passwort', { exact: true }).fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'ANMELDEN' }).click();
    await expectPath(page, '/user/dashboard');
    await expect.poll(() => accountLanguage(max)).toBe('de');
    expect(await htmlLang(page)).toBe('de');
  });
});
