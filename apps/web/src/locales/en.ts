import { enApp } from './en-app';
import { enFirst } from './en-first';

/**
 * Every text of the app in English, by feature: the spec's texts exactly where the spec gives
 * them. Other languages (de.ts) must have every key (the type checker and locales.test.ts say
 * which one is missing). Kept in two parts, so that the first visit downloads only the first
 * screens' texts: en-first.ts (with the app) and en-app.ts (with the signed-in frame). Three
 * sections have texts in both.
 */
export const en = {
  ...enFirst,
  ...enApp,
  profile: { ...enFirst.profile, ...enApp.profile },
  nav: { ...enFirst.nav, ...enApp.nav },
  dashboard: { ...enFirst.dashboard, ...enApp.dashboard },
};

/** The shape every language has: the same keys, each a string. */
type DeepStrings<Tree> = {
  [Key in keyof Tree]: Tree[Key] extends string ? string : DeepStrings<Tree[Key]>;
};
export type Messages = DeepStrings<typeof en>;
