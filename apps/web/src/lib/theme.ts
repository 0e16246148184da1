import { useSyncExternalStore } from 'react';

/** What the person chose in the menu: follow the system, or always light, or always dark. */
export type ThemeChoice = 'system' | 'light' | 'dark';
export type Theme = 'light' | 'dark';

export const THEME_CHOICES: readonly ThemeChoice[] = ['system', 'light', 'dark'];
/** Where the choice is remembered, per browser (like the sign-in token). */
export const THEME_STORAGE_KEY = 'theme';
const DARK_QUERY = '(prefers-color-scheme: dark)';

function isChoice(value: unknown): value is ThemeChoice {
  return THEME_CHOICES.includes(value as ThemeChoice);
}

/** The remembered choice; 'system' when none (or storage cannot be read, as in a private window). */
export function readThemeChoice(): ThemeChoice {
  try {
    const stored = window.localStorage.getItem(THEME_STORAGE_KEY);
    return isChoice(stored) ? stored : 'system';
  } catch {
    return 'system';
  }
}

function systemPrefersDark(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches;
}

export function resolveTheme(choice: ThemeChoice, prefersDark: boolean): Theme {
  if (choice === 'system') return prefersDark ? 'dark' : 'light';
  return choice;
}

/** Puts the theme on <html> (index.css remaps every colour under data-theme="dark"). */
export function applyTheme(choice: ThemeChoice = readThemeChoice()): Theme {
  const theme = resolveTheme(choice, systemPrefersDark());
  const root = document.documentElement;
  if (root.dataset.theme === theme) return theme;
  // Buttons and links animate their colours on hover; without this they would fade through
  // unreadable in-between colours for a moment whenever the theme changes.
  // (A class, not an injected <style>: the Content-Security-Policy allows no inline styles.)
  root.classList.add('theme-switching');
  root.dataset.theme = theme;
  void getComputedStyle(root).color; // the new colours are computed while transitions are off
  requestAnimationFrame(() =>
    requestAnimationFrame(() => root.classList.remove('theme-switching')),
  );
  return theme;
}

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

/** Remembers the choice, applies it at once, and tells every useTheme. */
export function setThemeChoice(choice: ThemeChoice): void {
  try {
    if (choice === 'system') window.localStorage.removeItem(THEME_STORAGE_KEY);
    else window.localStorage.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    // Not remembered (storage refused), still applied for this visit.
    memoryChoice = choice;
  }
  applyTheme(choice);
  notify();
}

/** The choice when storage refuses to keep it. */
let memoryChoice: ThemeChoice | undefined;
const currentChoice = () => memoryChoice ?? readThemeChoice();

/**
 * Applies the theme before the app's first render (called from main.tsx, so no frame is drawn in
 * the wrong colours) and follows the system while the choice is 'system', as well as a choice made
 * in another tab of the app.
 */
export function startTheme(): void {
  applyTheme(currentChoice());
  const followSystem = () => {
    if (currentChoice() === 'system') applyTheme('system');
    notify();
  };
  if (typeof window.matchMedia === 'function') {
    window.matchMedia(DARK_QUERY).addEventListener('change', followSystem);
  }
  window.addEventListener('storage', (event) => {
    if (event.key !== THEME_STORAGE_KEY && event.key !== null) return;
    applyTheme(currentChoice());
    notify();
  });
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The choice and the theme in force, for the menu's toggle and the charts. */
export function useTheme(): { choice: ThemeChoice; theme: Theme } {
  const choice = useSyncExternalStore(subscribe, currentChoice);
  const theme = useSyncExternalStore(subscribe, () =>
    document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light',
  );
  return { choice, theme };
}
