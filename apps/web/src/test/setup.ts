import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import { loadAppTexts } from '../lib/i18n';
import { removeToasts, resetGlobalState } from './global-state';
import { restoreApi } from './stub-api';

/**
 * A test fails when something calls console.error (React's warnings, an error nobody caught):
 * an error nobody expected is a bug. A test that expects one silences it with vi.spyOn. The
 * calls are kept by a wrapper rather than a spy, so a test's vi.restoreAllMocks cannot lose them.
 * Registered first, so its check runs last (after-hooks run in reverse), after the unmount.
 */
let consoleErrors: unknown[][] = [];
const realConsoleError = console.error;
beforeEach(() => {
  consoleErrors = [];
  console.error = (...args: unknown[]) => {
    consoleErrors.push(args);
    realConsoleError(...args);
  };
});
afterEach(() => {
  console.error = realConsoleError;
  expect(consoleErrors, 'unexpected console.error').toEqual([]);
});

/**
 * The files share one window and one module graph (web-unit runs with `isolate: false`): after
 * the unmount (registered before cleanup, so it runs after it) the page goes back to how the app
 * starts it, see global-state.ts. Before each test, a toast notify() showed after the last one.
 */
afterEach(() => resetGlobalState());
beforeEach(() => removeToasts());

// The app loads the signed-in screens' English with their frame; tests render those screens on
// their own.
await loadAppTexts();

// findBy and waitFor wait 5 s, not Testing Library's 1 s: in CI these files share the two cores
// with the API suite, and a screen that loads a language chunk, then answers a failed save, took
// more than a second there (account-pages, "keeps the new language here when the save fails").
// A screen that never shows what is awaited still fails, 4 s later.
configure({ asyncUtilTimeout: 5_000 });

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => cleanup());

// Every test starts with the real HTTP layer (stubApi replaces it), no spies and nobody signed in.
afterEach(() => {
  restoreApi();
  vi.restoreAllMocks();
  localStorage.clear();
});

/**
 * jsdom has no layout engine: matchMedia (used for the small-screen menu) and ResizeObserver
 * (used by chart containers) do not exist. These stubs answer "no match" and never fire.
 * Plain functions, not vi.fn: vi.spyOn on a vi.fn hands back that same mock, so a test's
 * mockImplementation (a phone's answer) would outlive vi.restoreAllMocks and reach later files.
 */
if (!window.matchMedia) {
  const ignore = () => {};
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    configurable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: ignore,
      removeListener: ignore,
      addEventListener: ignore,
      removeEventListener: ignore,
      dispatchEvent: () => false,
    }),
  });
}

if (!('ResizeObserver' in window)) {
  class ResizeObserverStub {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  Object.defineProperty(window, 'ResizeObserver', {
    writable: true,
    configurable: true,
    value: ResizeObserverStub,
  });
}

/**
 * jsdom has <dialog> but not showModal() or close(): this gives it the part the Modal uses (the
 * open attribute), so a modal's content renders and its buttons can be clicked.
 */
const dialogPrototype = HTMLDialogElement.prototype as HTMLDialogElement & Record<string, unknown>;
if (typeof dialogPrototype.showModal !== 'function') {
  Object.defineProperty(dialogPrototype, 'open', {
    configurable: true,
    get(this: HTMLDialogElement) {
      return this.hasAttribute('open');
    },
  });
  dialogPrototype.showModal = function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  dialogPrototype.close = function (this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
}
