import {
  HTML,
  HUGE,
  REFUSED_UNICODE,
  SQL,
  STORABLE_UNICODE,
  UNICODE,
} from '../fuzz/hostile-values.js';

/**
 * Hostile texts to store directly in the database, as older rows may hold them (the schemas now
 * refuse some of them at the door): the fuzz suite's own lists (test/fuzz/hostile-values.ts), so
 * what it sends is also what the exports are tested on, and the ones below.
 */

/** Each C0 control character (U+0000 to U+001F) and DEL, alone between two letters. */
export const CONTROL_CHARACTERS = [
  ...Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(code)),
  '\u007F',
].map((char) => `ctl ${char.charCodeAt(0).toString(16)}: a${char}b`);

/** Noncharacters and UTF-16 surrogates without their pair, at either end and inside. */
export const BROKEN_UNICODE = [
  '\uFFFE',
  '\uFFFF',
  'end\uFFFF',
  '\uFFFEstart',
  '\ud83dstarts with a high surrogate',
  'ends with a high surrogate\ud83d',
  '\ude00starts with a low surrogate',
  'ends with a low surrogate\ude00',
  'pair reversed \ude00\ud83d',
  'two highs \ud83d\ud83d😀',
];

/** Direction marks and isolates, which reorder what a reader sees. */
export const BIDI = [
  '\u200Fright-to-left mark',
  '\u061Carabic letter mark',
  'isolate \u2067عربي\u2069 end',
  'override \u202Dltr\u202C and \u202Ertl\u202C',
];

/** Text a spreadsheet program would treat as a formula if it were written as one. */
export const FORMULA_LIKE = [
  '=1+1',
  '+1',
  '-1',
  '@SUM(A1:A2)',
  '=HYPERLINK("http://evil.example","click")',
  "=cmd|' /C calc'!A0",
  '\t=1+1',
  '\r=1+1',
];

/** Longer than a spreadsheet cell may be (32,767), and exactly at the current limits. */
export const LONG = [
  'd'.repeat(10_000),
  `${'e'.repeat(32_766)}😀`,
  `${'f'.repeat(32_765)}😀`,
  'g'.repeat(32_767),
  'h'.repeat(32_768),
  `${'i'.repeat(32_765)}😀x`,
];

/** Every hostile text, the fuzz lists first; NUL only where the engine can store it (PostgreSQL cannot). */
export function hostileTexts(engine: 'sqlite' | 'postgres'): string[] {
  const all = [
    ...SQL,
    ...HTML,
    // The empty text is the fuzzer's (a missing value), not a hostile one to store.
    ...UNICODE.filter((text) => text !== ''),
    ...REFUSED_UNICODE,
    ...STORABLE_UNICODE,
    ...HUGE,
    ...CONTROL_CHARACTERS,
    ...BROKEN_UNICODE,
    ...BIDI,
    ...FORMULA_LIKE,
    ...LONG,
  ];
  return engine === 'postgres' ? all.filter((text) => !text.includes('\u0000')) : all;
}
