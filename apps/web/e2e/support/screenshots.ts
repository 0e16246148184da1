import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { screenshotsDir } from './paths.js';

/** The two widths every page is looked at: a laptop and a phone. */
export const SCREEN_WIDTHS = [1280, 390] as const;

/** Lets a resize settle (the menu switches at 1080 px) before a picture is taken or a scan. */
export async function settle(page: Page) {
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
}

/** Writes one full-page PNG to e2e/screenshots/{name}.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(screenshotsDir, { recursive: true });
  const file = path.join(screenshotsDir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  return file;
}

/**
 * Whether pages are photographed for people to look at: yes, unless E2E_PHOTOS=0 (CI, where the
 * pictures would go with the machine: each costs a full-page render and PNG encoding).
 */
export const photosWanted = process.env.E2E_PHOTOS !== '0';

/**
 * Takes {name}-1280.png and {name}-390.png, then puts the viewport back as it was. `beforeEach`
 * waits after each resize for what redraws at its new size (the dashboards' charts). Nothing
 * when photos are not wanted (photosWanted).
 */
export async function screenshotAtBothWidths(
  page: Page,
  name: string,
  { beforeEach }: { beforeEach?: (page: Page) => Promise<void> } = {},
): Promise<void> {
  if (!photosWanted) return;
  const original = page.viewportSize() ?? { width: 1280, height: 900 };
  for (const width of SCREEN_WIDTHS) {
    await page.setViewportSize({ width, height: original.height });
    await settle(page);
    if (beforeEach) await beforeEach(page);
    await screenshot(page, `${name}-${width}`);
  }
  await page.setViewportSize(original);
  await settle(page);
}
