import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SignedInUser } from './support/api.js';
import { setupE2E } from './support/e2e.js';
import { expectVisible } from './support/ui.js';

/**
 * Dark mode as a person meets it: the app follows the system, the menu's toggle overrides it,
 * the choice survives a reload, and the page is dark from the first frame React draws. The axe
 * scans of every page in both themes are in accessibility.test.ts.
 */
const e2e = setupE2E();

let admin: SignedInUser;

beforeAll(async () => {
  admin = await e2e.api.registerAdmin('Ada Admin');
});

const theme = (page: Page) => page.evaluate(() => document.documentElement.dataset.theme);
/** The page's background as drawn: the frame's own colour, not a transparent layer. */
const background = (page: Page) =>
  page.evaluate(() => getComputedStyle(document.querySelector('#root > div')!).backgroundColor);
/** Rough lightness 0-255 of an rgb()/oklch() colour as the browser reports it (sRGB average). */
const lightness = (page: Page, colour: string) =>
  page.evaluate((value) => {
    const canvas = document.createElement('canvas').getContext('2d')!;
    canvas.fillStyle = value;
    canvas.fillRect(0, 0, 1, 1);
    const [r, g, b] = canvas.getImageData(0, 0, 1, 1).data;
    return (r! + g! + b!) / 3;
  }, colour);

describe('dark mode', () => {
  it('follows the system: dark when the system is dark, light when it is light', async () => {
    const { page } = await e2e.openPage({ token: admin.token });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/admin/dashboard');
    await expectVisible(page.getByRole('heading', { level: 2 }), 'the dashboard');
    expect(await theme(page)).toBe('dark');
    expect(await lightness(page, await background(page))).toBeLessThan(60);
    // The system turns light while the page is open: so does the page.
    await page.emulateMedia({ colorScheme: 'light' });
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
    expect(await lightness(page, await background(page))).toBeGreaterThan(200);
  });

  it('the menu toggle overrides the system, is remembered across a reload, and can go back', async () => {
    const { page } = await e2e.openPage({ token: admin.token });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/admin/dashboard');
    const toggle = page.getByRole('navigation', { name: 'Main' }).getByRole('group', {
      name: 'Theme',
    });
    await expectVisible(toggle, 'the theme toggle');
    expect(await theme(page)).toBe('light');
    await toggle.getByRole('button', { name: 'Dark' }).click();
    expect(await theme(page)).toBe('dark');
    expect(await toggle.getByRole('button', { name: 'Dark' }).getAttribute('aria-pressed')).toBe(
      'true',
    );

    // Remembered, and in place before the app's first render: no frame is drawn light.
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { themesSeen: string[] }).themesSeen = seen;
      new MutationObserver(() => {
        if (document.getElementById('root')?.childElementCount)
          seen.push(document.documentElement.dataset.theme ?? 'none');
      }).observe(document, { subtree: true, childList: true });
    });
    await page.reload();
    await expectVisible(toggle, 'the theme toggle after the reload');
    expect(await theme(page)).toBe('dark');
    const seen = await page.evaluate(
      () => (window as unknown as { themesSeen: string[] }).themesSeen,
    );
    expect(seen.length).toBeGreaterThan(0);
    expect(new Set(seen)).toEqual(new Set(['dark']));
    expect(await lightness(page, await background(page))).toBeLessThan(60);

    // A dark system does not undo "Light"; "System" follows it again.
    await toggle.getByRole('button', { name: 'Light' }).click();
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await theme(page)).toBe('light');
    await toggle.getByRole('button', { name: 'System' }).click();
    expect(await theme(page)).toBe('dark');
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBeNull();
  });

  it("the charts are drawn in the dark theme's colours", async () => {
    const { page } = await e2e.openPage({ token: admin.token });
    await page.emulateMedia({ colorScheme: 'dark' });
    const member = await e2e.api.registerMember('Mia Member');
    await e2e.api.createTask(admin.token, {
      title: 'A task for the charts',
      priority: 'High',
      assignedTo: [member.user._id],
    });
    await page.goto('/admin/dashboard');
    const bar = page.locator('path.recharts-rectangle').first();
    await bar.waitFor();
    const fill = await bar.evaluate((element) => getComputedStyle(element).fill);
    // red-700 turned around is red-300: a light red that reads on a dark card.
    expect(await lightness(page, fill)).toBeGreaterThan(150);
  });
});

describe('disabled buttons', () => {
  /** A button's colour as drawn over the page: its background at its opacity, as sRGB. */
  const drawn = (page: Page, name: string) =>
    page.getByRole('button', { name, exact: true }).evaluate((button) => {
      const frame = getComputedStyle(document.querySelector('#root > div')!).backgroundColor;
      const style = getComputedStyle(button);
      const canvas = document.createElement('canvas').getContext('2d')!;
      canvas.fillStyle = frame;
      canvas.fillRect(0, 0, 1, 1);
      canvas.globalAlpha = Number(style.opacity);
      canvas.fillStyle = style.backgroundColor;
      canvas.fillRect(0, 0, 1, 1);
      const pixel = (colour: string) => {
        canvas.globalAlpha = 1;
        canvas.fillStyle = colour;
        canvas.fillRect(1, 0, 1, 1);
        return [...canvas.getImageData(1, 0, 1, 1).data.slice(0, 3)];
      };
      return { button: [...canvas.getImageData(0, 0, 1, 1).data.slice(0, 3)], page: pixel(frame) };
    });

  it.each(['light', 'dark'] as const)(
    'a disabled primary button is the enabled colour faded toward the page (%s)',
    async (scheme) => {
      const { page } = await e2e.openPage({ token: admin.token });
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto('/profile');
      // Nothing changed yet: Save is disabled; Change password is not.
      const save = page.getByRole('button', { name: 'Save', exact: true });
      await expectVisible(save, 'the Save button');
      expect(await save.isDisabled()).toBe(true);
      expect(await page.getByRole('button', { name: 'Change password' }).isDisabled()).toBe(false);
      const disabled = await drawn(page, 'Save');
      const enabled = await drawn(page, 'Change password');
      const away = (colour: number[]) => colour.map((value, i) => value - enabled.page[i]!);
      const [d, e] = [away(disabled.button), away(enabled.button)];
      const length = (v: number[]) => Math.hypot(...v);
      const cosine = d.reduce((sum, value, i) => sum + value * e[i]!, 0) / (length(d) * length(e));
      // The same hue as the enabled button (not a louder one), and nearer the page.
      expect(cosine).toBeGreaterThan(0.995);
      expect(length(d)).toBeLessThan(0.8 * length(e));
    },
  );
});

describe('installable', () => {
  it('index.html links a manifest with a name, standalone display and 192/512 icons', async () => {
    const { page } = await e2e.openPage();
    await page.goto('/login');
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBe('/manifest.webmanifest');
    const res = await page.request.get(href!);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toMatch(/^application\/manifest\+json/);
    const manifest = (await res.json()) as {
      name: string;
      start_url: string;
      display: string;
      theme_color: string;
      background_color: string;
      icons: Array<{ src: string; sizes: string; type: string; purpose?: string }>;
    };
    expect(manifest).toMatchObject({ name: 'Task Manager', start_url: '/', display: 'standalone' });
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
    expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/i);
    const sizes = (purpose: string) =>
      manifest.icons.filter((icon) => (icon.purpose ?? 'any') === purpose).map((i) => i.sizes);
    expect(sizes('any')).toEqual(expect.arrayContaining(['192x192', '512x512']));
    expect(sizes('maskable')).toEqual(expect.arrayContaining(['192x192', '512x512']));
    // Every icon is a PNG of the size it claims.
    for (const icon of manifest.icons) {
      const image = await page.request.get(icon.src);
      expect(image.status(), icon.src).toBe(200);
      expect(image.headers()['content-type']).toBe('image/png');
      const png = await image.body();
      const [width, height] = [png.readUInt32BE(16), png.readUInt32BE(20)];
      expect(`${width}x${height}`, icon.src).toBe(icon.sizes);
    }
  });
});
