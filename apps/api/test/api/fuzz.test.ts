import { randomUUID } from 'node:crypto';
import http, { type Server } from 'node:http';
import fc from 'fast-check';
import request, { type Response } from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { progressOf, statusOf, TASK_PRIORITIES, TASK_STATUSES } from '@task-manager/shared';
import { createOpenApiDocument } from '../../src/openapi/document.js';
import { databaseDigest } from '../helpers/db-digest.js';
import { buildTask, signUp, type Session } from '../helpers/factories.js';
import {
  operationsOf,
  resolvePointer,
  type OpenApiDoc,
  type Operation,
} from '../helpers/openapi.js';
import { buildWorld, tinyPng, type World } from '../helpers/security-world.js';
import { createTestContext, ENGINE, INVITE_TOKEN, type TestContext } from '../helpers/test-app.js';

/**
 * Property-based fuzzing of every documented operation: params, query and bodies of the wrong
 * type, missing and extra fields, 100 KB strings, emoji, RTL, NUL and lone surrogates,
 * `__proto__` / `constructor` / `prototype` keys, SQL and HTML, numbers as strings, arrays for
 * objects, deep nesting, invalid and sometimes valid ids. Properties: never a 5xx; every 4xx
 * is JSON with a `message`; a refused request (or a read) changes no row of any table; an
 * accepted one leaves every task's progress and status as its checklist makes them, the
 * callers' roles as they were, and Object.prototype untouched.
 *
 * The seed is fixed, so a failure reproduces: fast-check prints the seed and the path of the
 * shrunk counterexample. FUZZ_SEED picks another seed; FUZZ_RUNS the runs per operation.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_124);
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);
/** FUZZ_STATS=1 prints how often each operation answered each status (is the fuzz deep enough?). */
const STATS = process.env.FUZZ_STATS === '1';
const DOC = createOpenApiDocument() as unknown as OpenApiDoc;

/* ---------------------------------------------------------------------------------------- */
/* JSON that JSON.stringify cannot write: objects as key/value lists, so that `__proto__` is   */
/* sent as a real key, and raw text for nesting deeper than a recursive writer could go.      */
/* ---------------------------------------------------------------------------------------- */

class Obj {
  constructor(readonly entries: Array<[string, Json]>) {}
}
class Raw {
  constructor(readonly text: string) {}
}
type Json = null | boolean | number | string | Json[] | Obj | Raw;

function toJson(value: Json): string {
  if (value instanceof Raw) return value.text;
  if (value instanceof Obj) {
    return `{${value.entries.map(([key, inner]) => `${JSON.stringify(key)}:${toJson(inner)}`).join(',')}}`;
  }
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
  // NaN and ±Infinity have no JSON form: they go as null, as JSON.stringify writes them.
  return JSON.stringify(value) ?? 'null';
}

/** Long values shortened, so that a counterexample stays readable. */
function preview(text: string, max = 300): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}

/* ---------------------------------------------------------------------------------------- */
/* Hostile values                                                                             */
/* ---------------------------------------------------------------------------------------- */

const SQL = [
  "' OR 1=1 --",
  "'; drop table users; --",
  '"; DROP TABLE tasks; --',
  "1; DELETE FROM todo_items WHERE '1'='1",
  "admin'--",
  "%' OR '%'='",
  '\\',
];
const HTML = [
  '<script>window.__xss=1</script>',
  '<img src=x onerror="window.__xss=1">',
  '"><svg onload=alert(1)>',
  "javascript:alert('x')",
  '{{constructor.constructor("return 1")()}}',
];
const UNICODE = [
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
const REFUSED_UNICODE = [
  'a\u0000b',
  '\u0000',
  'x\ud800',
  '\udfffy',
  'Mallory\u0001\u000b\u001b[31m',
  'a\uFFFEb',
];
/** What browsers and terminals trip over and is still text: direction marks, zero widths, U+2028. */
const STORABLE_UNICODE = ['\u202Eevil', '😀\u200B', 'a\u2028b', '\uFEFFbom', 'tab\there', '\uFFFD'];
const NUMBERS_AS_STRINGS = [
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
const PROTO_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
];
/** Fields the server computes or owns: a body must never set them. */
const OWNED_KEYS = [
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
const HUGE = ['x'.repeat(100_000), '😀'.repeat(25_000), '<'.repeat(100_000), "'".repeat(100_000)];

const uuidLike = (id: string) => [
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

/** Any UTF-16 code unit, lone surrogates included. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));

/** Without the 100 KB strings: a URL over Node's 16 KB header limit never reaches the app. */
const hostileUrlString: fc.Arbitrary<string> = fc.oneof(
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

const hostileLeaf: fc.Arbitrary<Json> = fc.oneof(
  { weight: 6, arbitrary: hostileString },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.constantFrom(0, -0, 1e308, 2 ** 53 + 1, -1) },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
);

const hostileKey = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...PROTO_KEYS, ...OWNED_KEYS) },
  { weight: 1, arbitrary: hostileString.filter((key) => key.length < 200) },
);

const urlKey = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...PROTO_KEYS, ...OWNED_KEYS) },
  { weight: 1, arbitrary: hostileUrlString },
);

/** Prototype pollution attempts, as bodies or inside fields. */
const PROTO_PAYLOADS: Json[] = [
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
const deepNesting = fc
  .tuple(fc.integer({ min: 64, max: 20_000 }), fc.constantFrom('array', 'object', 'mixed'))
  .map(([depth, shape]) => {
    if (shape === 'array') return new Raw('['.repeat(depth) + ']'.repeat(depth));
    if (shape === 'object') return new Raw('{"a":'.repeat(depth) + '1' + '}'.repeat(depth));
    return new Raw('[{"__proto__":'.repeat(depth) + 'null' + '}]'.repeat(depth));
  });

const { tree: hostileTree } = fc.letrec<{ tree: Json; array: Json[]; object: Obj }>((tie) => ({
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
}));

/* ---------------------------------------------------------------------------------------- */
/* Valid values, by field name: a body built from them reaches past validation.                */
/* ---------------------------------------------------------------------------------------- */

interface Pools {
  world: World;
  /** Users an admin may change or delete freely (never a caller of this file). */
  users: string[];
  disposableUsers: string[];
  tasks: string[];
  disposableTasks: string[];
  items: string[];
  images: string[];
  /** A real `nextCursor` of each list, when the list gives one. */
  cursors: string[];
}

let counter = 0;
const uniqueEmail = fc.constant(null).map(() => `fuzz-${Date.now()}-${counter++}@example.com`);

const checklistArb = fc.array(
  fc.record(
    {
      text: fc.oneof(fc.string({ minLength: 1, maxLength: 30 }), hostileText(1, 500)),
      completed: fc.boolean(),
    },
    { requiredKeys: ['text'] },
  ),
  { minLength: 1, maxLength: 6 },
);

/**
 * Text that mostly passes validation yet carries hostile content (SQL, HTML, direction marks,
 * zero widths; sometimes NUL, control characters or lone surrogates, which are refused; 100 KB
 * cut to the limit): what reaches the database and the answers.
 */
function hostileText(min: number, max: number): fc.Arbitrary<string> {
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

/** Links that pass validation and still carry hostile bytes. */
const HOSTILE_LINKS = [
  'https://example.com/a\u0000b',
  "https://example.com/?q='OR'1'='1'--",
  'https://example.com/<script>alert(1)</script>',
  'https://example.com/😀',
  'https://example.com/\ud800',
];

function validField(
  field: string,
  pools: Pools,
  place: 'body' | 'query' = 'body',
): fc.Arbitrary<Json> | undefined {
  const { world } = pools;
  const tasks = [world.T1, world.T2, world.T12];
  const text = (min: number, max: number, usual: fc.Arbitrary<string>) =>
    fc.oneof({ weight: 2, arbitrary: usual }, { weight: 1, arbitrary: hostileText(min, max) });
  const samples: Record<string, () => fc.Arbitrary<Json>> = {
    name: () =>
      text(1, 100, fc.constantFrom('Ada Lovelace', 'Зоя Космодемьянская', '李雷', 'Ana María')),
    email: () =>
      fc.oneof(
        uniqueEmail,
        fc.constantFrom(world.M2.email, world.A2.email),
        fc
          .constantFrom("o'reilly--", 'x\u0000y', '😀', '<script>', 'a\ud800b', '%00')
          .map((local) => `${local}-${counter++}@example.com`),
      ),
    password: () =>
      fc.oneof(
        fc.constant(world.M2.password),
        text(8, 128, fc.string({ minLength: 8, maxLength: 40 })),
      ),
    currentPassword: () =>
      fc.oneof(fc.constant(world.M1.password), text(1, 100, fc.string({ maxLength: 20 }))),
    newPassword: () => text(8, 128, fc.string({ minLength: 8, maxLength: 40 })),
    // This server's image (claimed by the first request that uses it, then refused as taken),
    // one that does not exist, and links to other servers (refused since 2026-11-25).
    profileImageUrl: () =>
      fc.constantFrom(
        `/api/images/${world.imageId}`,
        '/api/images/00000000-0000-4000-8000-000000000000',
        'https://example.com/me.png',
        'http://example.com/a.jpg',
        '',
        null,
        ...HOSTILE_LINKS,
      ),
    adminInviteToken: () => fc.constantFrom(INVITE_TOKEN, Number(INVITE_TOKEN), '000000', null),
    role: () => fc.constantFrom('admin', 'member'),
    title: () => text(1, 200, fc.string({ minLength: 1, maxLength: 60 })),
    description: () => text(1, 10_000, fc.string({ minLength: 1, maxLength: 200 })),
    dueDate: () =>
      fc.oneof(
        fc
          .date({ min: new Date('1970-01-02'), max: new Date('9999-12-30'), noInvalidDate: true })
          .map((date) => date.toISOString()),
        fc.constantFrom('2030-02-28', '2030-01-01T10:00:00+05:30'),
      ),
    assignedTo: () =>
      fc.subarray([world.M1.id, world.M2.id, world.A2.id], { minLength: 1 }) as fc.Arbitrary<Json>,
    todoChecklist: () =>
      fc.oneof(
        checklistArb as fc.Arbitrary<Json>,
        // The texts a task has, ticked at random: what a member may send.
        fc
          .tuple(fc.constantFrom(...tasks), fc.array(fc.boolean(), { minLength: 2, maxLength: 2 }))
          .map(([task, ticks]) =>
            task.todoChecklist.map((item, index) => ({
              text: item.text,
              completed: ticks[index]!,
            })),
          ),
      ),
    priority: () => fc.constantFrom(...TASK_PRIORITIES),
    attachments: () =>
      fc.array(
        fc.constantFrom('https://example.com/spec.pdf', 'example.com/a', '', ...HOSTILE_LINKS),
        {
          maxLength: 3,
        },
      ),
    completed: () => fc.boolean(),
    status: () =>
      place === 'query'
        ? fc.constantFrom(...TASK_STATUSES, 'All', '')
        : fc.constantFrom(...TASK_STATUSES),
    limit: () => fc.constantFrom('1', '2', '100', '500'),
    // Real cursors, and cursors of the right form around hostile values (clients can forge them).
    cursor: () =>
      fc.oneof(
        pools.cursors.length > 0 ? fc.constantFrom(...pools.cursors) : fc.constant('AAAA'),
        fc
          .tuple(fc.oneof(hostileText(1, 64), fc.date().map(String)), fc.uuid())
          .map((pair) => Buffer.from(JSON.stringify(pair)).toString('base64url')),
        hostileTree.map((value) => Buffer.from(toJson(value)).toString('base64url').slice(0, 1024)),
      ),
    search: () => text(1, 100, fc.constantFrom('Member', 'one', 'ç', '%', '_')),
  };
  // Plain objects would answer for `constructor` and friends.
  return Object.hasOwn(samples, field) ? samples[field]!() : undefined;
}

/** A field's value: mostly valid, sometimes hostile, sometimes left out (undefined). */
function fieldValue(field: string, pools: Pools, where: string): fc.Arbitrary<Json | undefined> {
  const valid = validField(field, pools);
  if (!valid) throw new Error(`${where}: the fuzzer has no valid values for "${field}"`);
  return fc.oneof(
    { weight: 6, arbitrary: valid },
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 2, arbitrary: hostileLeaf },
    { weight: 1, arbitrary: hostileTree },
    { weight: 1, arbitrary: valid.map((value) => [value] as Json) },
    { weight: 1, arbitrary: fc.constantFrom(...PROTO_PAYLOADS) },
  );
}

/* ---------------------------------------------------------------------------------------- */
/* Requests                                                                                   */
/* ---------------------------------------------------------------------------------------- */

/** `forged` sends an Authorization header that is no valid token of ours. */
type Caller = 'anonymous' | 'forged' | 'M1' | 'A1';
const FORGED_AUTH = [
  'Bearer not.a.jwt',
  'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
  'Basic YWRtaW46YWRtaW4=',
  'Bearer',
  "Bearer ' OR 1=1 --",
];

type Body =
  | { kind: 'none' }
  | { kind: 'json'; json: Json; contentType: string }
  | { kind: 'bytes'; bytes: Buffer; contentType: string }
  | {
      kind: 'multipart';
      field: string;
      file: Buffer;
      filename: string;
      fileType: string;
      extra: Array<[string, string]>;
    };

interface FuzzRequest {
  caller: Caller;
  forged: string;
  method: string;
  path: string;
  query: string;
  body: Body;
}

const JSON_TYPES = [
  ...Array.from({ length: 12 }, () => 'application/json'),
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/json; charset=utf-16',
  'application/json; charset=koi8-r',
  'multipart/form-data; boundary=xyz',
];

/** Percent-encodes a path segment byte by byte (a lone surrogate goes as U+FFFD, as UTF-8). */
function encodeSegment(value: string): string {
  return [...Buffer.from(value, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

/** A path parameter: a valid id of its kind, another kind's id, or something hostile. */
function paramValue(path: string, method: string, name: string, pools: Pools) {
  const ids = (kind: string): string[] => {
    if (name === 'itemId') return pools.items;
    if (kind === 'users') return method === 'delete' ? pools.disposableUsers : pools.users;
    if (kind === 'tasks') return method === 'delete' ? pools.disposableTasks : pools.tasks;
    if (kind === 'images') return pools.images;
    throw new Error(`${method} ${path}: the fuzzer knows no ids for the parameter "${name}"`);
  };
  const own = ids(/^\/api\/(\w+)\//.exec(path)?.[1] ?? '');
  const all = [...pools.users, ...pools.tasks, ...pools.items, ...pools.images];
  const encoded = fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...own) },
    { weight: 1, arbitrary: fc.constantFrom(...all) },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 2, arbitrary: hostileUrlString.filter((value) => value.length > 0) },
  );
  return fc.oneof(
    { weight: 9, arbitrary: encoded.map(encodeSegment) },
    // Sent as typed: broken escapes, dot segments, an encoded slash.
    {
      weight: 1,
      arbitrary: fc.constantFrom('%', '%E0%A4', '%zz', '..', '.', '%2F', '%00', '%C0%AF'),
    },
  );
}

function queryArb(operation: Operation, pools: Pools, where: string): fc.Arbitrary<string> {
  const documented = (operation.parameters ?? []).filter((param) => param.in === 'query');
  const pairs = documented.map((param) => {
    const valid = validField(param.name, pools, 'query') as fc.Arbitrary<string> | undefined;
    if (!valid) throw new Error(`${where}: the fuzzer has no valid values for ?${param.name}`);
    return fc.oneof(
      { weight: 8, arbitrary: valid.map((value) => [[param.name, value]]) },
      { weight: 6, arbitrary: fc.constant([]) },
      { weight: 2, arbitrary: hostileUrlString.map((value) => [[param.name, value]]) },
      // Repeated: read as an array.
      {
        weight: 1,
        arbitrary: fc.tuple(valid, hostileUrlString).map(([a, b]) => [
          [param.name, a],
          [param.name, b],
        ]),
      },
      { weight: 1, arbitrary: hostileUrlString.map((value) => [[`${param.name}[x]`, value]]) },
    );
  });
  const extras = fc.oneof(
    fc.constant([]),
    fc.array(fc.tuple(urlKey, hostileUrlString), { minLength: 1, maxLength: 2 }),
  );
  return fc.tuple(fc.tuple(...pairs), extras).map(([documentedPairs, extraPairs]) => {
    const all = [...documentedPairs.flat(), ...extraPairs] as Array<[string, string]>;
    return all.length === 0
      ? ''
      : `?${all.map(([key, value]) => `${encodeSegment(key)}=${encodeSegment(value)}`).join('&')}`;
  });
}

function schemaOf(operation: Operation): { properties?: Record<string, unknown> } | undefined {
  const resolve = (schema: unknown): unknown => {
    const ref = (schema as { $ref?: string } | undefined)?.$ref;
    return ref ? resolve(resolvePointer(DOC, ref)) : schema;
  };
  return resolve(operation.requestBody?.content['application/json']?.schema) as
    { properties?: Record<string, unknown> } | undefined;
}

function jsonBodyArb(operation: Operation, pools: Pools, where: string): fc.Arbitrary<Body> {
  const schema = schemaOf(operation) as
    { properties?: Record<string, unknown>; required?: string[] } | undefined;
  const fields = Object.keys(schema?.properties ?? {});
  const required = new Set(schema?.required ?? []);
  const valid = (field: string) => {
    const value = validField(field, pools);
    if (!value) throw new Error(`${where}: the fuzzer has no valid values for "${field}"`);
    return required.has(field) ? value : fc.option(value, { nil: undefined });
  };
  const toBody = (values: Array<Json | undefined>, extras: ReadonlyArray<[string, Json]>) => {
    const entries: Array<[string, Json]> = [];
    fields.forEach((field, index) => {
      if (values[index] !== undefined) entries.push([field, values[index]!]);
    });
    return new Obj([...entries, ...extras]);
  };
  const validValues = fc.tuple(...fields.map(valid));
  // Fields the server owns, next to valid ones: an accepted request must ignore them.
  const ownedExtras = fc.oneof(
    fc.constant<Array<[string, Json]>>([]),
    fc.array(fc.tuple(fc.constantFrom(...OWNED_KEYS, ...PROTO_KEYS), hostileTree), {
      minLength: 1,
      maxLength: 3,
    }),
  );
  const hostileExtras = fc.array(fc.tuple(hostileKey, hostileTree), { maxLength: 3 });
  /** Every field valid: gets past validation, so hostile text reaches the database. */
  const allValid = fc
    .tuple(validValues, ownedExtras)
    .map(([values, extras]) => toBody(values, extras));
  /** One field wrong, missing or hostile; the rest valid. */
  const oneWrong =
    fields.length === 0
      ? allValid
      : fc
          .tuple(validValues, fc.nat(fields.length - 1), hostileTree, fc.boolean(), ownedExtras)
          .map(([values, index, wrong, drop, extras]) => {
            const changed = [...values];
            changed[index] = drop ? undefined : wrong;
            return toBody(changed, extras);
          });
  /** Every field at random: valid, missing, hostile, wrapped in an array, a pollution try. */
  const chaos = fc
    .tuple(fc.tuple(...fields.map((field) => fieldValue(field, pools, where))), hostileExtras)
    .map(([values, extras]) => toBody(values, extras));
  const shaped = fc.oneof(
    { weight: 4, arbitrary: allValid },
    { weight: 3, arbitrary: oneWrong },
    { weight: 2, arbitrary: chaos },
  );
  const json = fc.oneof(
    { weight: 16, arbitrary: shaped as fc.Arbitrary<Json> },
    { weight: 1, arbitrary: hostileTree },
    { weight: 1, arbitrary: deepNesting },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Json>(
        new Raw(''),
        new Raw('{'),
        new Raw('{"a":1,}'),
        new Raw('null'),
        new Raw('"text"'),
        new Raw('[]'),
        new Raw('{"a":"\\ud800"}'),
        new Raw(`{"x":"${'y'.repeat(100_000)}"}`),
        ...PROTO_PAYLOADS,
      ),
    },
  );
  return fc.oneof(
    {
      weight: 20,
      arbitrary: fc
        .tuple(json, fc.constantFrom(...JSON_TYPES))
        .map(([value, contentType]): Body => ({ kind: 'json', json: value, contentType })),
    },
    {
      weight: 1,
      arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes): Body => ({
        kind: 'bytes',
        bytes: Buffer.concat([
          Buffer.from('{"name":"'),
          Buffer.from(bytes),
          Buffer.from([0xff, 0xfe]),
          Buffer.from('"}'),
        ]),
        contentType: 'application/json',
      })),
    },
    { weight: 1, arbitrary: fc.constant<Body>({ kind: 'none' }) },
  );
}

function multipartArb(png: Buffer): fc.Arbitrary<Body> {
  const files = [
    png,
    png.subarray(0, 20),
    Buffer.alloc(0),
    Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    Buffer.from('<html><script>window.__xss=1</script></html>'),
    Buffer.concat([png, Buffer.from('<script>alert(1)</script>')]),
  ];
  const multipart = fc
    .record({
      field: fc.constantFrom('image', 'image', 'image', 'file', 'Image', 'image[]'),
      file: fc.oneof(fc.constantFrom(...files), fc.uint8Array({ maxLength: 256 }).map(Buffer.from)),
      filename: fc.constantFrom(
        'pixel.png',
        '../../etc/passwd',
        '<img src=x onerror=alert(1)>.png',
        "'; drop table images; --.png",
        '😀 صورة.png',
        'x'.repeat(300),
      ),
      fileType: fc.constantFrom(
        'image/png',
        'image/svg+xml',
        'text/html',
        'application/octet-stream',
      ),
      extra: fc.array(
        fc.tuple(
          fc.constantFrom('image', 'name', '__proto__', 'constructor'),
          fc.constantFrom('x', "' OR 1=1 --", '<script>'),
        ),
        { maxLength: 3 },
      ),
    })
    .map((parts): Body => ({ kind: 'multipart', ...parts }));
  const broken = fc
    .constantFrom(
      '--xyz\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n\r\nabc',
      '--xyz\r\nContent-Disposition: form-data\r\n\r\nabc\r\n--xyz--',
      'garbage',
      '',
      '--xyz--',
      `--xyz\r\nContent-Disposition: form-data; name="${'n'.repeat(2000)}"\r\n\r\nv\r\n--xyz--`,
    )
    .map((text): Body => ({
      kind: 'bytes',
      bytes: Buffer.from(text),
      contentType: 'multipart/form-data; boundary=xyz',
    }));
  return fc.oneof({ weight: 6, arbitrary: multipart }, { weight: 2, arbitrary: broken });
}

function requestArb(
  entry: ReturnType<typeof operationsOf>[number],
  pools: Pools,
  png: Buffer,
): fc.Arbitrary<FuzzRequest> {
  const { method, path, operation } = entry;
  const where = operation.operationId;
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
  const params = fc.tuple(...names.map((name) => paramValue(path, method, name, pools)));
  const content = Object.keys(operation.requestBody?.content ?? {});
  const body: fc.Arbitrary<Body> = content.includes('multipart/form-data')
    ? multipartArb(png)
    : content.includes('application/json')
      ? jsonBodyArb(operation, pools, where)
      : fc.oneof(
          { weight: 6, arbitrary: fc.constant<Body>({ kind: 'none' }) },
          {
            weight: 1,
            arbitrary: hostileTree.map((json): Body => ({
              kind: 'json',
              json,
              contentType: 'application/json',
            })),
          },
        );
  return fc
    .record({
      caller: fc.constantFrom<Caller>(
        'anonymous',
        'forged',
        'M1',
        'M1',
        'M1',
        'A1',
        'A1',
        'A1',
        'A1',
      ),
      forged: fc.constantFrom(...FORGED_AUTH),
      params,
      query: queryArb(operation, pools, where),
      body,
    })
    .map(({ params: values, ...rest }) => {
      let index = 0;
      const filled = path.replace(/\{\w+\}/g, () => values[index++]!);
      const r: FuzzRequest = { ...rest, method, path: filled };
      return Object.assign(r, { [fc.toStringMethod]: () => describeRequest(r) });
    });
}

function safeParse(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** A seed per operation, from its id: adding an operation does not reshuffle the others. */
function seedFor(name: string): number {
  let hash = SEED;
  for (const char of name) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return hash;
}

/** What fast-check prints for a failing request: short enough to read. */
function describeRequest(r: FuzzRequest): string {
  const body =
    r.body.kind === 'json'
      ? `${r.body.contentType} ${preview(toJson(r.body.json))}`
      : r.body.kind === 'bytes'
        ? `${r.body.contentType} bytes ${preview(r.body.bytes.toString('latin1'))}`
        : r.body.kind === 'multipart'
          ? `multipart ${r.body.field}=${r.body.filename} (${r.body.file.length} bytes) ${JSON.stringify(r.body.extra)}`
          : 'no body';
  return `${r.caller} ${r.method.toUpperCase()} ${preview(r.path + r.query)} ${body}`;
}

/* ---------------------------------------------------------------------------------------- */
/* The suite                                                                                  */
/* ---------------------------------------------------------------------------------------- */

describe(`fuzzing every documented operation (${ENGINE}, seed ${SEED})`, () => {
  let ctx: TestContext;
  let server: Server;
  let api: ReturnType<typeof request>;
  let world: World;
  let pools: Pools;
  let png: Buffer;
  /** The digest after the previous request, while nothing else has changed the data since. */
  let known: string | undefined;
  let statuses: number[] = [];
  const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();

  const digest = async () => (await databaseDigest(ctx.db, ctx.engine)).digest;
  const sessions = (): Record<'M1' | 'A1', Session> => ({ M1: world.M1, A1: world.A1 });

  function send(r: FuzzRequest): Promise<Response> {
    const verb = r.method as 'get' | 'put' | 'post' | 'patch' | 'delete';
    let req = api[verb](r.path + r.query);
    if (r.caller === 'forged') req = req.set('Authorization', r.forged);
    if (r.caller === 'M1' || r.caller === 'A1') req = req.set(sessions()[r.caller].auth);
    switch (r.body.kind) {
      case 'json':
        return req.set('Content-Type', r.body.contentType).send(toJson(r.body.json));
      case 'bytes':
        return req.set('Content-Type', r.body.contentType).send(r.body.bytes);
      case 'multipart': {
        for (const [name, value] of r.body.extra) req = req.field(name, value);
        return req.attach(r.body.field, r.body.file, {
          filename: r.body.filename,
          contentType: r.body.fileType,
        });
      }
      default:
        return req;
    }
  }

  /** A caller whose token an accepted request ended (logout, new password) signs in again. */
  async function keepSignedIn(caller: 'M1' | 'A1', r: FuzzRequest, res: Response) {
    const session = sessions()[caller];
    if (typeof res.body?.token === 'string' && res.body._id === session.id) {
      session.token = res.body.token;
      session.auth = { Authorization: `Bearer ${res.body.token}` };
      // A profile update that set a new password: sign-ins from now on need it.
      const sent = r.body.kind === 'json' ? safeParse(toJson(r.body.json)) : undefined;
      if (typeof sent?.newPassword === 'string') session.password = sent.newPassword;
    }
    const profile = await api.get('/api/auth/profile').set(session.auth);
    if (profile.status === 200) return;
    const login = await api
      .post('/api/auth/login')
      .send({ email: session.email, password: session.password });
    expect(login.status, `${caller} could not sign in again`).toBe(200);
    session.token = login.body.token;
    session.auth = { Authorization: `Bearer ${login.body.token}` };
  }

  /** What must hold after any accepted change. */
  async function checkInvariants(where: string) {
    const tasks = await ctx.db
      .selectFrom('tasks')
      .select(['id', 'progress', 'status', 'completed_todo_count', 'created_by'])
      .execute();
    const items = await ctx.db.selectFrom('todo_items').select(['task_id', 'completed']).execute();
    for (const task of tasks) {
      const own = items
        .filter((item) => item.task_id === task.id)
        .map((item) => ({ completed: Boolean(item.completed) }));
      if (own.length === 0) continue;
      const progress = progressOf(own);
      expect(
        {
          progress: task.progress,
          status: task.status,
          count: task.completed_todo_count,
        },
        `${where}: task ${task.id} no longer follows its checklist`,
      ).toEqual({
        progress,
        status: statusOf(progress),
        count: own.filter((item) => item.completed).length,
      });
    }
    const roles = await ctx.db
      .selectFrom('users')
      .select(['id', 'role'])
      .where('id', 'in', [world.M1.id, world.A1.id])
      .execute();
    expect(Object.fromEntries(roles.map((row) => [row.id, row.role])), where).toEqual({
      [world.M1.id]: 'member',
      [world.A1.id]: 'admin',
    });
  }

  function expectPrototypesClean(where: string) {
    expect(Object.getOwnPropertyNames(Object.prototype).sort(), where).toEqual(prototypeKeys);
    const probe = {} as Record<string, unknown>;
    expect([probe.role, probe.isAdmin, probe.polluted, probe.completed], where).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  }

  /** The properties every request must have. */
  async function checkRequest(r: FuzzRequest) {
    const where = describeRequest(r);
    const before = known ?? (await digest());
    const res = await send(r);
    if (STATS) statuses.push(res.status);
    expect(res.status, `${where} → ${preview(JSON.stringify(res.body))}`).toBeLessThan(500);
    if (res.status >= 400) {
      expect(res.headers['content-type'], `${where}: error type`).toMatch(/^application\/json/);
      expect(res.body?.message, `${where}: error message`).toEqual(expect.any(String));
    }
    expectPrototypesClean(where);
    const after = await digest();
    known = after;
    if (res.status >= 400 || r.method === 'get') {
      expect(after, `${where} → ${res.status} changed data`).toBe(before);
      return;
    }
    if (r.caller === 'M1' || r.caller === 'A1') await keepSignedIn(r.caller, r, res);
    await checkInvariants(where);
    known = undefined;
  }

  beforeAll(async () => {
    ctx = await createTestContext();
    server = http.createServer(ctx.app).listen(0, '127.0.0.1');
    api = request(server);
    world = await buildWorld(ctx);
    png = await tinyPng();
    const disposableUsers = await Promise.all(
      Array.from({ length: 6 }, () => signUp(ctx, 'member')),
    );
    const disposableTasks = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const res = await api
          .post('/api/tasks')
          .set(world.A1.auth)
          .send(buildTask([world.M1.id]))
          .expect(201);
        return res.body.task._id as string;
      }),
    );
    const cursors: string[] = [];
    for (const path of ['/api/tasks?limit=1', '/api/users?limit=1']) {
      const res = await api.get(path).set(world.A1.auth);
      const cursor = res.body?.nextCursor ?? res.headers['x-next-cursor'];
      if (typeof cursor === 'string') cursors.push(cursor);
    }
    const tasks = [world.T1, world.T2, world.T12];
    pools = {
      world,
      users: [world.M2.id, world.A2.id, world.deleted.id, ...disposableUsers.map((u) => u.id)],
      disposableUsers: [world.deleted.id, ...disposableUsers.map((u) => u.id)],
      tasks: tasks.map((task) => task._id),
      disposableTasks,
      items: tasks.flatMap((task) => task.todoChecklist.map((item) => item._id)),
      images: [world.imageId],
      cursors,
    };
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await ctx?.close();
  });

  const operations = operationsOf(DOC);
  operations.forEach((entry) => {
    const { method, path, operation } = entry;
    it(`${operation.operationId}: ${method.toUpperCase()} ${path}`, async () => {
      await fc.assert(
        fc.asyncProperty(requestArb(entry, pools, png), (r) => checkRequest(r)),
        { seed: seedFor(operation.operationId), numRuns: RUNS },
      );
      if (STATS) {
        const counts: Record<number, number> = {};
        for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
        console.info(`${operation.operationId}: ${JSON.stringify(counts)}`);
        statuses = [];
      }
    });
  });

  /* -------------------------------------------------------------------------------------- */
  /* Mass assignment: fields the server owns, sent next to valid ones, are ignored.           */
  /* -------------------------------------------------------------------------------------- */

  describe('an accepted request stores no field the caller may not set', () => {
    const userRow = (id: string) =>
      ctx.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const taskRow = (id: string) =>
      ctx.db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const sendJson = (
      method: 'post' | 'put',
      url: string,
      session: Session | undefined,
      body: Json,
    ) => {
      let req = api[method](url).set('Content-Type', 'application/json');
      if (session) req = req.set(session.auth);
      return req.send(toJson(body));
    };
    const LONG_AGO = '2001-01-01T00:00:00.000Z';
    const FAKE_HASH = '$2b$04$abcdefghijklmnopqrstuuJ0r4q0Jc0k4l6Yh2yZbXh2Xb9Xb9Xb9';
    const pollution = fc.option(fc.constantFrom(...PROTO_PAYLOADS), { nil: undefined });
    const entriesOf = (record: Record<string, Json>, extra?: Json): Array<[string, Json]> => [
      ...Object.entries(record),
      ...(extra instanceof Obj ? extra.entries : []),
    ];
    /** Any subset of the user fields the server owns, with values an attacker would pick. */
    const ownedUserFields = () =>
      fc.record(
        {
          role: fc.constantFrom('admin', 'ADMIN', 'owner'),
          isAdmin: fc.constantFrom(true, 'true', 1),
          email: fc.constant(world.A2.email),
          token_version: fc.integer({ min: -5, max: 1000 }),
          tokenVersion: fc.integer({ min: -5, max: 1000 }),
          createdBy: fc.constant(world.A1.id),
          _id: fc.constantFrom(world.M2.id, world.A1.id, randomUUID()),
          id: fc.constantFrom(world.M2.id, world.A1.id, randomUUID()),
          password_hash: fc.constant(FAKE_HASH),
          passwordHash: fc.constant(FAKE_HASH),
          created_at: fc.constant(LONG_AGO),
          createdAt: fc.constant(LONG_AGO),
        },
        { requiredKeys: [] },
      ) as fc.Arbitrary<Record<string, Json>>;
    /** Any subset of the task fields the server computes or owns. */
    const ownedTaskFields = () =>
      fc.record(
        {
          progress: fc.oneof(fc.integer({ min: -100, max: 1000 }), fc.constant('100')),
          status: fc.constantFrom(...TASK_STATUSES, 'Done'),
          completedTodoCount: fc.integer({ min: -5, max: 500 }),
          completed_todo_count: fc.integer({ min: -5, max: 500 }),
          createdBy: fc.constantFrom(world.M1.id, world.A2.id, randomUUID()),
          created_by: fc.constantFrom(world.M1.id, world.A2.id),
          _id: fc.uuid(),
          id: fc.uuid(),
          createdAt: fc.constant(LONG_AGO),
          created_at: fc.constant(LONG_AGO),
          updatedAt: fc.constant(LONG_AGO),
        },
        { requiredKeys: [] },
      ) as fc.Arbitrary<Record<string, Json>>;
    const checklist = fc.array(
      fc.record({
        text: fc.string({ minLength: 1, maxLength: 20 }).filter((text) => text.trim().length > 0),
        completed: fc.boolean(),
      }),
      { minLength: 1, maxLength: 6 },
    );

    afterEach(() => {
      known = undefined;
    });

    it('PUT /api/auth/profile: a member changes only their name, whatever else they send', async () => {
      await fc.assert(
        fc.asyncProperty(
          ownedUserFields(),
          pollution,
          fc.constantFrom('Ada', 'Grace', 'Zoë'),
          async (owned, extra, name) => {
            const before = await userRow(world.M1.id);
            const res = await sendJson(
              'put',
              '/api/auth/profile',
              world.M1,
              new Obj([...entriesOf(owned, extra), ['name', name]]),
            );
            expect(res.status, JSON.stringify(res.body)).toBe(200);
            expect(res.body).toMatchObject({
              _id: world.M1.id,
              role: 'member',
              email: before.email,
            });
            const after = await userRow(world.M1.id);
            expect(after.name).toBe(name);
            expect({ ...after, name: before.name, updated_at: before.updated_at }).toEqual(before);
            expectPrototypesClean(`profile ${JSON.stringify(owned)}`);
          },
        ),
        { seed: seedFor('mass-assignment profile'), numRuns: 25 },
      );
    });

    it('POST /api/auth/register: a role or id in the body makes no admin and picks no id', async () => {
      await fc.assert(
        fc.asyncProperty(ownedUserFields(), pollution, async (owned, extra) => {
          const email = `mass-${counter++}@example.com`;
          const body = new Obj([
            ...entriesOf(owned, extra).filter(([key]) => key !== 'email'),
            ['name', 'New Member'],
            ['email', email],
            ['password', 'correct-horse-battery'],
          ]);
          const res = await sendJson('post', '/api/auth/register', undefined, body);
          expect(res.status, JSON.stringify(res.body)).toBe(201);
          expect(res.body.role).toBe('member');
          const row = await userRow(res.body._id);
          expect(row).toMatchObject({ email, role: 'member', token_version: 0 });
          expect([owned._id, owned.id, world.M2.id, world.A1.id]).not.toContain(row.id);
          expect(row.password_hash).not.toBe(FAKE_HASH);
          expect(row.created_at).not.toBe(LONG_AGO);
          expectPrototypesClean(`register ${JSON.stringify(owned)}`);
        }),
        { seed: seedFor('mass-assignment register'), numRuns: 25 },
      );
    });

    it('POST and PUT /api/users: an admin cannot set ids, token versions or hashes', async () => {
      await fc.assert(
        fc.asyncProperty(ownedUserFields(), pollution, async (owned, extra) => {
          const email = `made-${counter++}@example.com`;
          const created = await sendJson(
            'post',
            '/api/users',
            world.A1,
            new Obj([
              ...entriesOf(owned, extra).filter(([key]) => !['email', 'role'].includes(key)),
              ['name', 'Made By Admin'],
              ['email', email],
              ['password', 'correct-horse-battery'],
            ]),
          );
          expect(created.status, JSON.stringify(created.body)).toBe(201);
          const row = await userRow(created.body._id);
          expect(row).toMatchObject({ email, role: 'member', token_version: 0 });
          expect([owned._id, owned.id]).not.toContain(row.id);
          expect(row.password_hash).not.toBe(FAKE_HASH);
          expect(row.created_at).not.toBe(LONG_AGO);

          const updated = await sendJson(
            'put',
            `/api/users/${row.id}`,
            world.A1,
            new Obj([
              ...entriesOf(owned, extra).filter(([key]) => !['email', 'role'].includes(key)),
              ['name', 'Renamed By Admin'],
            ]),
          );
          expect(updated.status, JSON.stringify(updated.body)).toBe(200);
          const after = await userRow(row.id);
          expect(after.name).toBe('Renamed By Admin');
          expect({ ...after, name: row.name, updated_at: row.updated_at }).toEqual(row);
          expectPrototypesClean(`users ${JSON.stringify(owned)}`);
        }),
        { seed: seedFor('mass-assignment users'), numRuns: 20 },
      );
    });

    it("POST /api/tasks: progress, status, counts, creator, id and dates are the server's", async () => {
      await fc.assert(
        fc.asyncProperty(ownedTaskFields(), checklist, pollution, async (owned, items, extra) => {
          const started = new Date().toISOString();
          const body = buildTask([world.M1.id], { todoChecklist: items });
          const res = await sendJson(
            'post',
            '/api/tasks',
            world.A1,
            new Obj([...Object.entries(body), ...entriesOf(owned, extra)] as Array<[string, Json]>),
          );
          expect(res.status, JSON.stringify(res.body)).toBe(201);
          const progress = progressOf(items);
          const task = res.body.task;
          expect(task).toMatchObject({
            progress,
            status: statusOf(progress),
            completedTodoCount: items.filter((item) => item.completed).length,
            createdBy: world.A1.id,
          });
          expect([owned._id, owned.id]).not.toContain(task._id);
          expect(task.createdAt >= started).toBe(true);
          const row = await taskRow(task._id);
          expect(row).toMatchObject({
            progress,
            status: statusOf(progress),
            completed_todo_count: task.completedTodoCount,
            created_by: world.A1.id,
            created_at: task.createdAt,
          });
          expectPrototypesClean(`create task ${JSON.stringify(owned)}`);
        }),
        { seed: seedFor('mass-assignment create task'), numRuns: 25 },
      );
    });

    it("PUT /api/tasks/:id: the same fields stay the server's on an update", async () => {
      await fc.assert(
        fc.asyncProperty(ownedTaskFields(), checklist, pollution, async (owned, items, extra) => {
          const created = await api
            .post('/api/tasks')
            .set(world.A1.auth)
            .send(buildTask([world.M1.id]))
            .expect(201);
          const id = created.body.task._id as string;
          const before = await taskRow(id);
          const res = await sendJson(
            'put',
            `/api/tasks/${id}`,
            world.A1,
            new Obj([
              ['title', 'Retitled'],
              ['todoChecklist', items],
              ...entriesOf(owned, extra),
            ] as Array<[string, Json]>),
          );
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          const progress = progressOf(items);
          const after = await taskRow(id);
          expect(after).toMatchObject({
            id,
            title: 'Retitled',
            progress,
            status: statusOf(progress),
            completed_todo_count: items.filter((item) => item.completed).length,
            created_by: world.A1.id,
            created_at: before.created_at,
          });
          expect(after.updated_at).not.toBe(LONG_AGO);
          expectPrototypesClean(`update task ${JSON.stringify(owned)}`);
        }),
        { seed: seedFor('mass-assignment update task'), numRuns: 20 },
      );
    });
  });

  /* -------------------------------------------------------------------------------------- */
  /* Links that would run script are refused wherever a link is stored.                       */
  /* -------------------------------------------------------------------------------------- */

  describe('a link with a script scheme is refused (400) and changes nothing', () => {
    const SCRIPT_LINKS = [
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
    /** The same schemes, mixed case, after any run of spaces and control characters. */
    const generatedLinks = fc
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

    /** Every place a link is stored, as a request carrying `link`. */
    const places: Array<[string, (link: string) => Promise<Response>]> = [
      [
        'POST /api/tasks attachments',
        (link) =>
          api
            .post('/api/tasks')
            .set(world.A1.auth)
            .send(buildTask([world.M1.id], { attachments: [link] })),
      ],
      [
        'PUT /api/tasks/:id attachments',
        (link) =>
          api
            .put(`/api/tasks/${world.T1._id}`)
            .set(world.A1.auth)
            .send({ attachments: ['https://example.com/ok', link] }),
      ],
      [
        'POST /api/auth/register profileImageUrl',
        (link) =>
          api.post('/api/auth/register').send({
            name: 'Linky',
            email: `link-${counter++}@example.com`,
            password: 'correct-horse-battery',
            profileImageUrl: link,
          }),
      ],
      [
        'PUT /api/auth/profile profileImageUrl',
        (link) => api.put('/api/auth/profile').set(world.M1.auth).send({ profileImageUrl: link }),
      ],
      [
        'POST /api/users profileImageUrl',
        (link) =>
          api
            .post('/api/users')
            .set(world.A1.auth)
            .send({
              name: 'Linky',
              email: `link-${counter++}@example.com`,
              password: 'correct-horse-battery',
              profileImageUrl: link,
            }),
      ],
      [
        'PUT /api/users/:id profileImageUrl',
        (link) =>
          api.put(`/api/users/${world.M2.id}`).set(world.A1.auth).send({ profileImageUrl: link }),
      ],
    ];

    async function expectRefused(
      place: string,
      link: string,
      send: (link: string) => Promise<Response>,
    ) {
      const before = await digest();
      const res = await send(link);
      expect(res.status, `${place} ${JSON.stringify(link)} → ${JSON.stringify(res.body)}`).toBe(
        400,
      );
      expect(res.body.message).toEqual(expect.any(String));
      expect(await digest(), `${place} ${JSON.stringify(link)} changed data`).toBe(before);
    }

    for (const [place, send] of places) {
      it(`${place}: every known script link`, async () => {
        for (const link of SCRIPT_LINKS) await expectRefused(place, link, send);
        known = undefined;
      });
      it(`${place}: generated script links`, async () => {
        await fc.assert(
          fc.asyncProperty(generatedLinks, (link) => expectRefused(place, link, send)),
          { seed: seedFor(`script links ${place}`), numRuns: 15 },
        );
        known = undefined;
      });
    }
  });

  /* -------------------------------------------------------------------------------------- */
  /* Characters no text may hold: NUL (PostgreSQL cannot store it), the other C0 controls,     */
  /* U+FFFE/U+FFFF and lone surrogates (XML, so the spreadsheets, cannot carry them).          */
  /* -------------------------------------------------------------------------------------- */

  it.each([
    ['NUL', 'a\u0000b'],
    ['ANSI escapes', 'Mallory\u0001\u000b\u001b[31m'],
    ['U+FFFE', 'a\uFFFEb'],
    ['U+FFFF', 'a\uFFFFb'],
    ['a lone surrogate', 'a\ud800b'],
  ])(
    'refuses text with %s with a 400 on both engines, in every text field, and changes nothing',
    async (_what, nul) => {
      // Lone surrogates cannot be percent-encoded (a browser sends U+FFFD): the URL cases skip them.
      const inUrl = !/[\ud800-\udfff]/.test(nul);
      const cursor = Buffer.from(JSON.stringify([nul, randomUUID()])).toString('base64url');
      const requests: Array<[string, () => Promise<Response>]> = [
        [
          'register e-mail',
          () =>
            api
              .post('/api/auth/register')
              .send({ name: 'N', email: `x${nul}@example.com`, password: 'correct-horse-battery' }),
        ],
        [
          'login e-mail',
          () =>
            api
              .post('/api/auth/login')
              .send({ email: `x${nul}@example.com`, password: 'whatever-it-is' }),
        ],
        ['profile name', () => api.put('/api/auth/profile').set(world.M1.auth).send({ name: nul })],
        [
          'user e-mail',
          () =>
            api
              .put(`/api/users/${world.M2.id}`)
              .set(world.A1.auth)
              .send({ email: `x${nul}@example.com` }),
        ],
        [
          'task title',
          () =>
            api
              .post('/api/tasks')
              .set(world.A1.auth)
              .send(buildTask([world.M1.id], { title: nul })),
        ],
        [
          'task attachment',
          () =>
            api
              .put(`/api/tasks/${world.T1._id}`)
              .set(world.A1.auth)
              .send({ attachments: [`https://example.com/${nul}`] }),
        ],
        [
          'checklist text',
          () =>
            api
              .put(`/api/tasks/${world.T1._id}/todo`)
              .set(world.A1.auth)
              .send({ todoChecklist: [{ text: nul }] }),
        ],
        [
          'task description',
          () =>
            api
              .put(`/api/tasks/${world.T1._id}`)
              .set(world.A1.auth)
              .send({ description: `Fine ${nul}` }),
        ],
        [
          'new password',
          () =>
            api
              .put('/api/auth/profile')
              .set(world.M1.auth)
              .send({ currentPassword: world.M1.password, newPassword: `Long enough ${nul}` }),
        ],
        ...(inUrl
          ? ([
              [
                'user search',
                () => api.get(`/api/users?search=${encodeURIComponent(nul)}`).set(world.A1.auth),
              ],
            ] as Array<[string, () => Promise<Response>]>)
          : []),
        // A forged cursor holding NUL (the other characters are merely compared, never stored).
        ...(nul.includes('\u0000')
          ? ([
              ['task list cursor', () => api.get(`/api/tasks?cursor=${cursor}`).set(world.M1.auth)],
            ] as Array<[string, () => Promise<Response>]>)
          : []),
      ];
      for (const [what, send] of requests) {
        const before = await digest();
        const res = await send();
        expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(400);
        expect(res.body.message).toEqual(expect.any(String));
        expect(await digest(), `${what} changed data`).toBe(before);
      }
      known = undefined;
    },
  );
});
