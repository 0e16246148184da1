import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium unless CHROMIUM_PATH says otherwise. */
export const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * Launches headless Chromium. A missing browser is a failure, never a skip: CI installs it
 * (.ci/run), and a developer sets CHROMIUM_PATH or installs the `chromium` package.
 */
export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(chromiumPath)) {
    throw new Error(
      `Chromium was not found at ${chromiumPath}. Install it (apt-get install -y chromium) ` +
        'or set CHROMIUM_PATH to a Chromium or Chrome executable.',
    );
  }
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

/** A failed request a test provokes on purpose, whose console message is then expected. */
export interface ExpectedFailedRequest {
  /** The API path, e.g. /api/auth/login. */
  path: string;
  status: number;
}

/**
 * Refused with 401 once the session behind them has ended, whatever page is on screen: the live
 * stream and its ticket, and the session check the app makes again when its window comes back to
 * the front.
 */
const SESSION_PATHS = ['/api/events', '/api/events/ticket', '/api/auth/profile'];

export interface PageSession {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught exceptions so far, minus the expected failed requests. */
  problems(): string[];
  /**
   * Declares that this test makes the server answer `status` on `path`: Chromium logs
   * "Failed to load resource: ... status of 401" for it, and only that exact message is allowed.
   */
  expectFailedRequest(request: ExpectedFailedRequest): void;
  /**
   * Declares that the server ends this page's session: the requests at `paths` (what the screen
   * asks for) are refused with 401, and so may be the live stream's reconnection (the server
   * closes the stream of an ended session as soon as an event concerns that person) and the
   * session check.
   */
  expectSessionEnd(paths: string[]): void;
}

export interface OpenPageOptions {
  width?: number;
  height?: number;
  /** Signs the page in by storing this token where the app keeps it (localStorage 'token'). */
  token?: string;
  /** The browser's time zone; UTC unless a test is about time zones. */
  timezoneId?: string;
  /** The browser's languages (navigator.languages); en-US unless a test is about languages. */
  locale?: string;
}

/**
 * Opens a page in a fresh context (its own localStorage) that records every console error and
 * uncaught page error, so the test can fail on them.
 */
export async function openPageSession(
  browser: Browser,
  baseURL: string,
  { width = 1280, height = 900, token, timezoneId = 'UTC', locale = 'en-US' }: OpenPageOptions = {},
): Promise<PageSession> {
  const context = await browser.newContext({
    baseURL,
    viewport: { width, height },
    acceptDownloads: true,
    // A fixed zone and locale so dates render the same on every machine.
    locale,
    timezoneId,
    storageState: token
      ? {
          cookies: [],
          origins: [{ origin: baseURL, localStorage: [{ name: 'token', value: token }] }],
        }
      : undefined,
  });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  page.setDefaultNavigationTimeout(20_000);
  const expected: ExpectedFailedRequest[] = [];
  const recorded: { text: string; url: string }[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') {
      recorded.push({ text: `console.error: ${message.text()}`, url: message.location().url });
    }
  });
  page.on('pageerror', (error) => {
    recorded.push({ text: `uncaught ${error.name}: ${error.message}`, url: '' });
  });

  const isExpected = ({ text, url }: { text: string; url: string }) =>
    expected.some((request) => {
      if (
        !text.startsWith(
          `console.error: Failed to load resource: the server responded with a status of ${request.status} `,
        )
      ) {
        return false;
      }
      try {
        return new URL(url).pathname.replace(/\/$/, '') === request.path.replace(/\/$/, '');
      } catch {
        return false;
      }
    });

  return {
    context,
    page,
    problems: () =>
      recorded
        .filter((entry) => !isExpected(entry))
        .map((entry) => (entry.url ? `${entry.text} (${entry.url})` : entry.text)),
    expectFailedRequest: (request) => expected.push(request),
    expectSessionEnd: (paths) => {
      for (const path of [...SESSION_PATHS, ...paths]) expected.push({ path, status: 401 });
    },
  };
}
