import type { Language, LANGUAGES as ACCOUNT_LANGUAGES } from '@task-manager/shared';
import i18next from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import type { en } from '../locales/en';
import { enFirst } from '../locales/en-first';

export type { Language };

/**
 * The languages the app speaks, the first being the default: the shared list the API keeps on
 * accounts, checked here by type only. Importing the shared value would bring zod (the shared
 * index's schemas) into the first load of every page; `satisfies` fails the typecheck as soon as
 * the two lists differ in any way.
 */
export const LANGUAGES = ['en', 'de'] as const satisfies typeof ACCOUNT_LANGUAGES;

/** Where this browser remembers the chosen language. */
export const LANGUAGE_STORAGE_KEY = 'language';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}

function stored(): Language | undefined {
  try {
    const value = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return LANGUAGES.find((language) => language === value);
  } catch {
    return undefined;
  }
}

/** The person's choice if they made one, else the browser's first language we speak, else English. */
export function detectLanguage(
  preferred: readonly string[] = typeof navigator === 'undefined' ? [] : navigator.languages,
): Language {
  const chosen = stored();
  if (chosen) return chosen;
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    const match = LANGUAGES.find((language) => language === base);
    if (match) return match;
  }
  return 'en';
}

/**
 * English comes with the app; another language's messages load the first time they are needed
 * (their own chunk), so the first visit of the many who read English carries one language only.
 */
const loaders: Record<
  Exclude<Language, 'en'>,
  () => Promise<{ messages: typeof en; serverTexts: ReadonlyMap<string, string> }>
> = {
  de: async () => {
    const [{ de }, { deServerTexts }] = await Promise.all([
      import('../locales/de'),
      import('../locales/server-texts.de'),
    ]);
    return { messages: de, serverTexts: deServerTexts };
  },
};

/** The English texts of the signed-in screens, once asked for (loadAppTexts). */
let appTexts: Promise<void> | undefined;

/**
 * Loads the English texts of the signed-in screens (once), merged into the first ones: the
 * signed-in frame and the command palette wait for them before they show. Other languages load
 * whole (loadLanguage); English stays the fallback of any text they lack.
 */
export function loadAppTexts(): Promise<void> {
  appTexts ??= import('../locales/en-app').then(
    ({ enApp }) => {
      i18next.addResourceBundle('en', 'translation', enApp, true, false);
    },
    (error: unknown) => {
      appTexts = undefined; // the next screen asks for the chunk again
      throw error;
    },
  );
  return appTexts;
}

/** Waits for a chunk and for the English texts of the signed-in screens: the chunk's module. */
export async function withAppTexts<Module>(chunk: Promise<Module>): Promise<Module> {
  const [module] = await Promise.all([chunk, loadAppTexts()]);
  return module;
}

/** Per language but English: the shared schemas' and the API's English texts, translated. */
const serverTexts = new Map<Language, ReadonlyMap<string, string>>();

/** Loads a language's messages (once) without switching to it. */
export async function loadLanguage(language: Language): Promise<void> {
  if (language === 'en' || i18next.hasResourceBundle(language, 'translation')) return;
  const loaded = await loaders[language]();
  serverTexts.set(language, loaded.serverTexts);
  i18next.addResourceBundle(language, 'translation', loaded.messages);
}

/**
 * A message of the shared schemas or of the API (English, the spec's words) in the app's
 * language; a text it does not know (say, from a newer server) stays as it came.
 */
export function translateServerText(text: string): string {
  return serverTexts.get(currentLanguage())?.get(text) ?? text;
}

const initialLanguage = detectLanguage();

void i18next.use(initReactI18next).init({
  // A copy: loadAppTexts merges the rest into what i18next holds.
  resources: { en: { translation: structuredClone(enFirst) } },
  // Another language starts as English for the moment its messages take to arrive (startI18n).
  lng: 'en',
  fallbackLng: 'en',
  supportedLngs: [...LANGUAGES],
  // React escapes what it renders; i18next must not escape it a second time.
  interpolation: { escapeValue: false },
  returnNull: false,
  // A text that is nowhere (say, a screen shown before its texts loaded) shows as its key: say so
  // where the browser tests see it.
  saveMissing: true,
  missingKeyHandler: (languages, _namespace, key) => {
    console.error(`No text for "${key}" in ${languages.join(', ')}`);
  },
});

if (typeof document !== 'undefined') document.documentElement.lang = i18next.language;

/** Before the first render: the detected language, its messages loaded. */
export async function startI18n(): Promise<void> {
  if (initialLanguage === 'en') return;
  await loadLanguage(initialLanguage).catch(() => undefined);
  if (i18next.hasResourceBundle(initialLanguage, 'translation')) {
    document.documentElement.lang = initialLanguage;
    await i18next.changeLanguage(initialLanguage);
  }
}

export function currentLanguage(): Language {
  return LANGUAGES.find((language) => language === i18next.language) ?? 'en';
}

/** The language setLanguage is switching to while its messages load. */
let switchingTo: Language | undefined;

/** The language the app speaks, or the one just chosen while its messages still load. */
export function chosenLanguage(): Language {
  return switchingTo ?? currentLanguage();
}

/** Switches the app's language at once and remembers it on this browser. */
export async function setLanguage(language: Language): Promise<void> {
  switchingTo = language;
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Private mode: the choice lasts for this visit.
  }
  try {
    await loadLanguage(language);
    document.documentElement.lang = language;
    await i18next.changeLanguage(language);
  } finally {
    // Switched, or the messages did not load: either way the app speaks currentLanguage().
    if (switchingTo === language) switchingTo = undefined;
  }
}

/** The translate function of the current language, for components. */
export function useT() {
  return useTranslation().t;
}

export { i18next };
