import { describe, expect, it } from 'vitest';
import { de } from './de';
import { en } from './en';
import { enApp } from './en-app';
import { enFirst } from './en-first';

/** Every key path of a message tree, e.g. 'profile.heading'. */
function keysOf(tree: object, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null
      ? keysOf(value as object, `${prefix}${key}.`)
      : [`${prefix}${key}`],
  );
}

const LANGUAGES = { de };

/** The text at a key path ('timeline.fields.title') of a message tree. */
function textAt(tree: object, key: string): unknown {
  return key
    .split('.')
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], tree);
}

/** Every [key path, text] of a message tree. */
function flat(tree: object): Array<[string, string]> {
  return keysOf(tree).map((key) => [key, textAt(tree, key) as string]);
}

describe('translations', () => {
  it.each(Object.entries(LANGUAGES))('%s has every English key and no other', (_, messages) => {
    const expected = keysOf(en).sort();
    const actual = keysOf(messages).sort();
    expect(
      expected.filter((key) => !actual.includes(key)),
      'missing',
    ).toEqual([]);
    expect(
      actual.filter((key) => !expected.includes(key)),
      'unknown',
    ).toEqual([]);
  });

  it.each(Object.entries(LANGUAGES))(
    '%s leaves no text empty or untranslated by mistake',
    (_, messages) => {
      for (const [key, text] of flat(messages)) {
        expect(typeof text, key).toBe('string');
        expect(text.trim(), key).not.toBe('');
      }
    },
  );

  it('keeps the placeholders of every English text', () => {
    const placeholders = (text: string) =>
      [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
    for (const [name, messages] of Object.entries(LANGUAGES)) {
      for (const [key, english] of flat(en)) {
        const other = textAt(messages, key) as string;
        expect(placeholders(other), `${name} ${key}`).toEqual(placeholders(english));
      }
    }
  });
});

describe('the English in two parts', () => {
  it('holds every text once: the first screens’ part and the signed-in screens’ part', () => {
    const first = keysOf(enFirst);
    const app = keysOf(enApp);
    expect(first.filter((key) => app.includes(key))).toEqual([]);
    expect([...first, ...app].sort()).toEqual(keysOf(en).sort());
    for (const [key, text] of flat(en)) {
      expect(textAt(enFirst, key) ?? textAt(enApp, key), key).toBe(text);
    }
  });

  it('keeps the sign-in page’s texts in the first part', () => {
    for (const key of [
      'auth.login',
      'auth.welcomeBack',
      'profile.emailAddress',
      'ui.showPassword',
    ]) {
      expect(textAt(enFirst, key), key).toEqual(expect.any(String));
    }
    expect(textAt(enFirst, 'profile.heading')).toBeUndefined();
  });
});
