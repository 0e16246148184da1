/**
 * Hostile texts to store directly in the database, as older rows may hold them (the schemas now
 * refuse some of them at the door). The lists from SQL to HUGE are the fuzz suite's own values
 * (test/api/fuzz.test.ts), so what it sends is also what the exports are tested on.
 */

export const SQL = [
  "' OR 1=1 --",
  "'; drop table users; --",
  '"; DROP TABLE tasks; --',
  "1; DELETE FROM todo_items WHERE '1'='1",
  "admin'--",
  "%' OR '%'='",
  '\\',
];
export const HTML = [
  '<script>window.__xss=1</script>',
  '<img src=x onerror="window.__xss=1">',
  '"><svg onload=alert(1)>',
  "javascript:alert('x')",
  '{{constructor.constructor("return 1")()}}',
];
export const UNICODE = [
  '😀🎉👩‍👩‍👧‍👦',
  '\u202Egnp.exe\u202C',
  'مرحبا بالعالم',
  'שלום עולם',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udc00y',
  'tail\ud83d',
  '\uFEFF\u200B\u2028\u2029',
  'Ω≈ç√∫˜µ≤≥÷',
  '\r\n\t',
  ' ',
];
/** What every schema refuses: NUL, C0 controls, U+FFFE/U+FFFF, lone surrogates. */
export const REFUSED_UNICODE = [
  'a\u0000b',
  '\u0000',
  'x\ud800',
  '\udfffy',
  'Mallory\u0001\u000b\u001b[31m',
  'a\uFFFEb',
];
/** What browsers and terminals trip over and is still text: direction marks, zero widths, U+2028. */
export const STORABLE_UNICODE = [
  '\u202Eevil',
  '😀\u200B',
  'a\u2028b',
  '\uFEFFbom',
  'tab\there',
  '\uFFFD',
];
export const HUGE = [
  'x'.repeat(100_000),
  '😀'.repeat(25_000),
  '<'.repeat(100_000),
  "'".repeat(100_000),
];

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

/** Every hostile text above; NUL only where the engine can store it (PostgreSQL cannot). */
export function hostileTexts(engine: 'sqlite' | 'postgres'): string[] {
  const all = [
    ...SQL,
    ...HTML,
    ...UNICODE,
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
