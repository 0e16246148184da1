import toast from 'react-hot-toast';
import { vi } from 'vitest';
import { holdRequests } from '../lib/api-client';
import { i18next } from '../lib/i18n';
import { sessionStarted } from '../lib/notify';

/**
 * The web-unit files share one jsdom window and one module graph (the project runs with
 * `isolate: false`), so whatever a test leaves outside its React root is seen by every test after
 * it, in any file. The test setup calls `resetGlobalState` after every test (and the toast part
 * before every test too) to put back the page as the app starts it.
 *
 * This module is evaluated once per worker (unlike the setup file, which runs again for every
 * file), so the URL below is the one jsdom started with, not one a test left behind.
 */
const startUrl = window.location.href;

/**
 * react-hot-toast keeps its toasts in a module of its own, not in the <Toaster>: a toast shown in
 * one test (or one that notify() shows a moment after a test ends) is drawn by the next Toaster.
 */
export function removeToasts() {
  toast.remove();
}

/** The element's attributes as `keep` gives them, every other one removed. */
function resetAttributes(element: Element, keep: Record<string, string>) {
  for (const name of element.getAttributeNames()) {
    if (!(name in keep)) element.removeAttribute(name);
  }
  for (const [name, value] of Object.entries(keep)) element.setAttribute(name, value);
}

export async function resetGlobalState() {
  // Timers a test faked (and forgot to give back) would stall every later waitFor and userEvent.
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();

  removeToasts();
  // A session a test ended quiets failure toasts for a moment (notify.ts): not the next test's;
  // and holds calls until the next page shows (api-client.ts): not the next test's calls.
  sessionStarted();
  holdRequests(false);

  // The language is i18next's own singleton; a test that switched to German must not leave it so.
  if (i18next.language !== 'en') await i18next.changeLanguage('en');

  // What cleanup() leaves: nodes appended to <body> outside a React root, <body> styles a page set
  // (the menu's overflow: hidden), <html>'s theme, language and the theme-switching class.
  document.body.replaceChildren();
  resetAttributes(document.body, {});
  resetAttributes(document.documentElement, { lang: 'en' });

  localStorage.clear();
  sessionStorage.clear();

  // A form left with changes takes its Back-button guard away on unmount with history.back(),
  // which jsdom runs two tasks later: it lands here, not in the next test (where a `popstate`
  // would move the next guard, or the URL the back-button-guard tests check).
  for (let task = 0; task < 2; task++) await new Promise((resolve) => setTimeout(resolve, 0));
  // A test that pushed history entries leaves the window at its URL.
  if (window.location.href !== startUrl || window.history.state !== null) {
    window.history.replaceState(null, '', startUrl);
  }
}
