import fc from 'fast-check';
import { Obj, Raw, type Json } from './json.js';
import {
  HTML,
  HUGE,
  NUMBERS_AS_STRINGS,
  OWNED_KEYS,
  PROTO_KEYS,
  REFUSED_UNICODE,
  SQL,
  STORABLE_UNICODE,
  UNICODE,
  uuidLike,
} from './hostile-values.js';

/**
 * Hostile values as fast-check arbitraries: strings for URLs and bodies, JSON leaves and trees,
 * keys, prototype pollution attempts, deep nesting, text that mostly passes validation, and links
 * with a script scheme.
 */

/** Any UTF-16 code unit, lone surrogates included. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));

/** Without the 100 KB strings: a URL over Node's 16 KB header limit never reaches the app. */
export const hostileUrlString: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...SQL, ...HTML, ...UNICODE, ...NUMBERS_AS_STRINGS) },
  { weight: 2, arbitrary: fc.constantFrom(...PROTO_KEYS, ...OWNED_KEYS) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 3, arbitrary: fc.string({ unit: codeUnit, maxLength: 20 }) },
  { weight: 1, arbitrary: fc.uuid().chain((id) => fc.constantFrom(id, ...uuidLike(id))) },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.double()).map(String) },
);

const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 12, arbitrary: hostileUrlString },
  { weight: 1, arbitrary: fc.constantFrom(...HUGE) },
);

export const hostileLeaf: fc.Arbitrary<Json> = fc.oneof(
  { weight: 6, arbitrary: hostileString },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.constantFrom(0, -0, 1e308, 2 ** 53 + 1, -1) },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
);

export const hostileKey = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...PROTO_KEYS, ...OWNED_KEYS) },
  { weight: 1, arbitrary: hostileString.filter((key) => key.length < 200) },
);

export const urlKey = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...PROTO_KEYS, ...OWNED_KEYS) },
  { weight: 1, arbitrary: hostileUrlString },
);

/** Prototype pollution attempts, as bodies or inside fields. */
export const PROTO_PAYLOADS: Json[] = [
  new Obj([
    [
      '__proto__',
      new Obj([
        ['role', 'admin'],
        ['isAdmin', true],
        ['completed', true],
      ]),
    ],
  ]),
  new Obj([['constructor', new Obj([['prototype', new Obj([['isAdmin', true]])]])]]),
  new Obj([['prototype', new Obj([['role', 'admin']])]]),
  new Obj([
    ['__proto__', new Obj([['__proto__', new Obj([['polluted', 'yes']])]])],
    ['text', 'x'],
  ]),
];

/** Deep nesting, written as text: arrays, objects and a mix. */
export const deepNesting = fc
  .tuple(fc.integer({ min: 64, max: 20_000 }), fc.constantFrom('array', 'object', 'mixed'))
  .map(([depth, shape]) => {
    if (shape === 'array') return new Raw('['.repeat(depth) + ']'.repeat(depth));
    if (shape === 'object') return new Raw('{"a":'.repeat(depth) + '1' + '}'.repeat(depth));
    return new Raw('[{"__proto__":'.repeat(depth) + 'null' + '}]'.repeat(depth));
  });

/** Any JSON value, nested a few levels, with hostile leaves, keys and pollution attempts. */
export const { tree: hostileTree } = fc.letrec<{ tree: Json; array: Json[]; object: Obj }>(
  (tie) => ({
    tree: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { weight: 5, arbitrary: hostileLeaf },
      { weight: 1, arbitrary: tie('array') },
      { weight: 1, arbitrary: tie('object') },
      { weight: 1, arbitrary: fc.constantFrom(...PROTO_PAYLOADS) },
    ),
    array: fc.array(tie('tree'), { maxLength: 4 }),
    object: fc
      .array(fc.tuple(hostileKey, tie('tree')), { maxLength: 4 })
      .map((entries) => new Obj(entries)),
  }),
);

/**
 * Text that mostly passes validation yet carries hostile content (SQL, HTML, direction marks,
 * zero widths; sometimes NUL, control characters or lone surrogates, which are refused; 100 KB
 * cut to the limit): what reaches the database and the answers.
 */
export function hostileText(min: number, max: number): fc.Arbitrary<string> {
  return fc
    .oneof(
      { weight: 3, arbitrary: fc.constantFrom(...SQL, ...HTML, ...STORABLE_UNICODE) },
      { weight: 1, arbitrary: fc.constantFrom(...REFUSED_UNICODE) },
      { weight: 2, arbitrary: hostileUrlString },
      { weight: 1, arbitrary: fc.constantFrom(...HUGE) },
    )
    .map((text) => text.slice(0, max).padEnd(min, '!'))
    .filter((text) => text.trim().length > 0);
}

/** Script schemes as in SCRIPT_LINKS, mixed case, after any run of spaces and control characters. */
export const scriptLinks = fc
  .tuple(
    fc.string({
      unit: fc.constantFrom(' ', '\t', '\n', '\r', '\f', '\u0000', '\u0001', '\u001f'),
      maxLength: 4,
    }),
    fc.constantFrom('javascript', 'data', 'vbscript'),
    fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }),
    fc.constantFrom('alert(1)', '//%0Aalert(1)', 'text/html,<script>alert(1)</script>'),
  )
  .map(([prefix, scheme, upper, payload]) => {
    const cased = [...scheme].map((char, i) => (upper[i] ? char.toUpperCase() : char)).join('');
    return `${prefix}${cased}:${payload}`;
  });
