import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { ApiClient } from './api.js';
import {
  launchBrowser,
  openPageSession,
  type OpenPageOptions,
  type PageSession,
} from './browser.js';
import { screenshot } from './screenshots.js';
import { startServer, type TestServer } from './server.js';

export interface E2E {
  readonly server: TestServer;
  readonly api: ApiClient;
  /** A fresh browser context and page; closed, and checked for errors, after each test. */
  openPage(options?: OpenPageOptions): Promise<PageSession>;
}

/**
 * Call once at the top of a test file: starts the API server and Chromium for the file, and after
 * every test fails it when a page logged a console error or threw, or the server logged an error.
 */
export function setupE2E(): E2E {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  let api: ApiClient | undefined;
  const sessions: PageSession[] = [];

  // A failed start is kept and thrown by every test that needs it, so each test FAILS with the
  // reason (e.g. Chromium missing) instead of being reported as skipped. The server and the
  // browser fail separately: without Chromium, API setup still works and each browser test fails.
  let serverError: unknown;
  let browserError: unknown;
  // Both start at once: the server's start (mostly loading its modules) and Chromium's overlap.
  beforeAll(async () => {
    await Promise.all([
      startServer().then(
        (started) => {
          server = started;
          api = new ApiClient(started.baseURL, started.inviteToken);
        },
        (error: unknown) => {
          serverError = error;
        },
      ),
      launchBrowser().then(
        (launched) => {
          browser = launched;
        },
        (error: unknown) => {
          browserError = error;
        },
      ),
    ]);
  });

  afterEach(async (context) => {
    const open = sessions.splice(0);
    const problems: string[] = [];
    for (const [index, session] of open.entries()) {
      if (context.task.result?.state === 'fail' && !session.page.isClosed()) {
        const name = `failures/${context.task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 80)}-${index}`;
        await screenshot(session.page, name).catch(() => undefined);
      }
      problems.push(...session.problems());
      await session.context.close();
    }
    problems.push(...(server?.takeErrorLogs() ?? []).map((line) => `server error log: ${line}`));
    expect(problems, 'console errors, page errors or server errors during the test').toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const ready = <T>(value: T | undefined, error: unknown, what: string): T => {
    if (error) throw error;
    if (value === undefined) throw new Error(`${what} is not ready: did beforeAll run?`);
    return value;
  };

  return {
    get server() {
      return ready(server, serverError, 'The API server');
    },
    get api() {
      return ready(api, serverError, 'The API client');
    },
    async openPage(options) {
      const session = await openPageSession(
        ready(browser, browserError, 'Chromium'),
        ready(server, serverError, 'The API server').baseURL,
        options,
      );
      sessions.push(session);
      return session;
    },
  };
}
