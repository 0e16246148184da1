/**
 * The fuzz suite's hostile values, as plain lists (test/fuzz/hostile-arbitraries.ts draws from
 * them). test/helpers/hostile-text.ts stores some of them in the database directly, so what the
 * fuzzer sends is also what the exports are tested on.
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
  '',
];
/** What no text may hold (refused by every schema): NUL, C0 controls, U+FFFE/U+FFFF, lone surrogates. */
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
export const NUMBERS_AS_STRINGS = [
  '0',
  '-1',
  '1e309',
  'NaN',
  'Infinity',
  '0x10',
  '00012',
  '9007199254740993',
  'true',
  'null',
  'undefined',
  '[]',
  '{}',
];
export const PROTO_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
];
/** Fields the server computes or owns: a body must never set them. */
export const OWNED_KEYS = [
  '_id',
  'id',
  'role',
  'isAdmin',
  'admin',
  'email',
  'token_version',
  'tokenVersion',
  'password_hash',
  'passwordHash',
  'createdBy',
  'created_by',
  'createdAt',
  'created_at',
  'updatedAt',
  'progress',
  'status',
  'completedTodoCount',
  'completed_todo_count',
  'task_id',
  'user_id',
];
export const HUGE = [
  'x'.repeat(100_000),
  '😀'.repeat(25_000),
  '<'.repeat(100_000),
  "'".repeat(100_000),
];

/** Variations on a real id: malformed, without dashes, upper-cased, padded, NUL-terminated. */
export const uuidLike = (id: string) => [
  'not-a-uuid',
  '00000000-0000-0000-0000-000000000000',
  id.replaceAll('-', ''),
  `${id}x`,
  id.toUpperCase(),
  ` ${id}`,
  `${id}\u0000`,
  `${id.slice(0, -1)}g`,
  `{${id}}`,
];

/** Links that pass validation and still carry hostile bytes. */
export const HOSTILE_LINKS = [
  'https://example.com/a\u0000b',
  "https://example.com/?q='OR'1'='1'--",
  'https://example.com/<script>alert(1)</script>',
  'https://example.com/😀',
  'https://example.com/\ud800',
];

/** Links that would run script (or read local files) if a page used them as links. */
export const SCRIPT_LINKS = [
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  ' javascript:alert(1)',
  ' JavaScript:alert(document.cookie)',
  '\tjavascript:alert(1)',
  '\u0001javascript:alert(1)',
  'java\tscript:alert(1)',
  'java\nscript:alert(1)',
  'javascript://example.com/%0Aalert(1)',
  'data:text/html,<script>alert(1)</script>',
  'DATA:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+',
  ' data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'vbscript:msgbox(1)',
  ' VBScript:MsgBox(1)',
  'file:///etc/passwd',
];

/** Authorization headers that are no valid token of ours. */
export const FORGED_AUTH = [
  'Bearer not.a.jwt',
  'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
  'Basic YWRtaW46YWRtaW4=',
  'Bearer',
  "Bearer ' OR 1=1 --",
];
