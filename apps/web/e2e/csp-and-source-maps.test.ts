import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SignedInUser } from './support/api.js';
import { TEST_PASSWORD } from './support/api.js';
import { setupE2E } from './support/e2e.js';
import { webDir } from './support/paths.js';
import { expectToast } from './support/ui.js';

/**
 * The built app under its real Content-Security-Policy in Chromium: inline styles only with the
 * page's nonce (no 'unsafe-inline', no https: hosts), yet the toasts, whose styles goober injects
 * in a <style> element, still show styled, and no violation is reported. The build's source maps
 * stay private: no file points to them and the server does not serve them.
 */
const e2e = setupE2E();
const assetsDir = path.join(webDir, 'dist', 'assets');

let member: SignedInUser;

beforeAll(async () => {
  member = await e2e.api.registerMember('Cara Csp');
});

/** The directives of a Content-Security-Policy header, by name. */
function directives(header: string | null): Map<string, string[]> {
  return new Map(
    (header ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

describe('the Content-Security-Policy in a real browser', () => {
  it('allows no inline style but the nonced one, and the toasts still show, styled', async () => {
    const { page } = await e2e.openPage();
    // Recorded from the first script on, before the page's own (init scripts are not subject
    // to the page's policy).
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __violations: string[] }).__violations = seen;
      document.addEventListener('securitypolicyviolation', (event) => {
        seen.push(`${event.effectiveDirective} blocked ${event.blockedURI || 'inline'}`);
      });
    });
    const response = await page.goto('/login');
    const csp = directives(response!.headers()['content-security-policy'] ?? null);
    expect(csp.get('style-src')).toEqual(["'self'", expect.stringMatching(/^'nonce-.+'$/)]);
    expect(csp.get('font-src')).toEqual(["'self'"]);
    expect([...csp.values()].flat()).not.toContain("'unsafe-inline'");

    // Signed in on this very page (a new page load would bring a new nonce).
    await page.getByLabel('Email Address').fill(member.user.email);
    await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'LOGIN' }).click();
    await expectToast(page, `Welcome back, ${member.user.name}!`);

    // goober's <style> carries the header's nonce, and its rules apply: a toast is laid out
    // as a flex box on a white card (react-hot-toast's own styles), not as bare text.
    const nonce = /^'nonce-(.+)'$/.exec(csp.get('style-src')![1]!)![1];
    const goober = await page.evaluate(() => {
      const style = document.getElementById('_goober') as HTMLStyleElement | null;
      return { nonce: style?.nonce, rules: style?.sheet?.cssRules.length ?? 0 };
    });
    expect(goober.nonce).toBe(nonce);
    expect(goober.rules).toBeGreaterThan(0);
    const toast = page.getByRole('status').filter({ hasText: 'Welcome back' });
    const look = await toast.evaluate((element) => {
      const card = element.parentElement!;
      const style = getComputedStyle(card);
      return { display: style.display, background: style.backgroundColor };
    });
    expect(look).toEqual({ display: 'flex', background: 'rgb(255, 255, 255)' });

    const violations = await page.evaluate(
      () => (window as unknown as { __violations: string[] }).__violations,
    );
    expect(violations).toEqual([]);
  });
});

describe('the source maps of the build', () => {
  const builtFiles = () =>
    fs.readdirSync(assetsDir).filter((name) => name.endsWith('.js') || name.endsWith('.css'));

  it('are written (for whoever debugs the build) but no built file points to them', () => {
    const files = builtFiles();
    expect(files.length).toBeGreaterThan(0);
    expect(fs.readdirSync(assetsDir).some((name) => name.endsWith('.js.map'))).toBe(true);
    const pointing = files.filter((name) =>
      fs.readFileSync(path.join(assetsDir, name), 'utf8').includes('sourceMappingURL'),
    );
    expect(pointing).toEqual([]);
  });

  it('are not served: GET /assets/<file>.map is a 404', async () => {
    const script = builtFiles().find((name) => name.endsWith('.js'))!;
    expect(fs.existsSync(path.join(assetsDir, `${script}.map`))).toBe(true);
    const base = e2e.server.baseURL;
    const served = await fetch(`${base}/assets/${script}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('sourcemap')).toBeNull();
    expect(served.headers.get('x-sourcemap')).toBeNull();
    for (const url of [
      `/assets/${script}.map`,
      `/assets/${script}.ma%70`,
      `/assets/${script}.MAP`,
    ]) {
      const res = await fetch(`${base}${url}`);
      expect(res.status, url).toBe(404);
      expect(await res.json()).toEqual({ message: 'Not found', code: 'not_found' });
    }
  });
});
