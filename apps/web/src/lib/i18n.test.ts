import { afterEach, describe, expect, it, vi } from 'vitest';
import { enApp } from '../locales/en-app';
import { i18next, loadAppTexts, withAppTexts } from './i18n';

describe('the English texts', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('says on the console when a text is nowhere, as a screen shown before its texts would', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const shown = i18next.t('board.noSuchText' as never);
    expect(shown).toBe('board.noSuchText');
    expect(error).toHaveBeenCalledWith('No text for "board.noSuchText" in en');
  });

  it('loads the signed-in screens’ texts alongside a chunk, keeping the first screens’', async () => {
    const chunk = Promise.resolve({ Page: 'the module' });
    await expect(withAppTexts(chunk)).resolves.toEqual({ Page: 'the module' });
    await loadAppTexts();
    expect(i18next.t('board.heading')).toBe(enApp.board.heading);
    expect(i18next.t('auth.login')).toBe('LOGIN');
    expect(i18next.t('profile.heading')).toBe('Profile');
    expect(i18next.t('profile.emailAddress')).toBe('Email Address');
  });
});
