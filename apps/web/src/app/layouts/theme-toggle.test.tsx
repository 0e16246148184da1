import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  applyTheme,
  readThemeChoice,
  resolveTheme,
  startTheme,
  THEME_STORAGE_KEY,
} from '../../lib/theme';
import { ThemeToggle } from './theme-toggle';

/** A system preference the test can flip, as matchMedia reports it. */
function fakeSystem(dark: boolean) {
  const listeners = new Set<() => void>();
  const media = {
    get matches() {
      return dark;
    },
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  };
  vi.stubGlobal('matchMedia', () => media);
  return {
    set(value: boolean) {
      dark = value;
      listeners.forEach((listener) => listener());
    },
  };
}

const theme = () => document.documentElement.dataset.theme;

describe('the theme', () => {
  beforeEach(() => {
    localStorage.clear();
    delete document.documentElement.dataset.theme;
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('follows the system when nothing was chosen', () => {
    fakeSystem(true);
    expect(readThemeChoice()).toBe('system');
    expect(applyTheme()).toBe('dark');
    expect(theme()).toBe('dark');
    fakeSystem(false);
    expect(applyTheme()).toBe('light');
  });

  it('resolves each choice', () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
    expect(resolveTheme('dark', false)).toBe('dark');
  });

  it('ignores a remembered value it does not know', () => {
    localStorage.setItem(THEME_STORAGE_KEY, 'purple');
    expect(readThemeChoice()).toBe('system');
  });

  it('the toggle: a choice applies at once, is remembered, and shows as pressed', async () => {
    const system = fakeSystem(false);
    startTheme();
    render(<ThemeToggle />);
    const group = screen.getByRole('group', { name: 'Theme' });
    expect(group).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'System' })).toHaveAttribute('aria-pressed', 'true');
    expect(theme()).toBe('light');

    await userEvent.click(screen.getByRole('button', { name: 'Dark' }));
    expect(theme()).toBe('dark');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
    expect(screen.getByRole('button', { name: 'Dark' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'System' })).toHaveAttribute('aria-pressed', 'false');
    // A chosen theme does not follow the system.
    act(() => system.set(true));
    act(() => system.set(false));
    expect(theme()).toBe('dark');

    await userEvent.click(screen.getByRole('button', { name: 'Light' }));
    expect(theme()).toBe('light');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');

    // Back to the system: nothing remembered, and the page follows the system again.
    await userEvent.click(screen.getByRole('button', { name: 'System' }));
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBeNull();
    act(() => system.set(true));
    expect(theme()).toBe('dark');
    act(() => system.set(false));
    expect(theme()).toBe('light');
  });

  it('a remembered choice is applied on start, before anything renders', () => {
    fakeSystem(false);
    localStorage.setItem(THEME_STORAGE_KEY, 'dark');
    startTheme();
    expect(theme()).toBe('dark');
  });
});
