import fc from 'fast-check';
import {
  resolvePointer,
  type OpenApiDoc,
  type Operation,
  type operationsOf,
} from '../helpers/openapi.js';
import {
  deepNesting,
  hostileKey,
  hostileTree,
  hostileUrlString,
  PROTO_PAYLOADS,
  urlKey,
} from './hostile-arbitraries.js';
import { FORGED_AUTH, OWNED_KEYS, PROTO_KEYS } from './hostile-values.js';
import { preview, Raw, toJson, Obj, type Json } from './json.js';
import { fieldValue, validField, type Pools } from './valid-values.js';

/**
 * Requests to a documented operation: who calls (nobody, a forged token, a member, an admin),
 * path parameters, query strings and bodies (JSON, raw bytes, multipart), each mostly valid and
 * sometimes hostile, read from the operation's entry in the OpenAPI document.
 */

/** `forged` sends an Authorization header that is no valid token of ours. */
export type Caller = 'anonymous' | 'forged' | 'M1' | 'A1';

export type Body =
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

/** One request the fuzzer sends. */
export interface FuzzRequest {
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
export function encodeSegment(value: string): string {
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
    if (kind === 'labels') return pools.labels;
    if (kind === 'invites') return pools.invites;
    if (kind === 'comments') return pools.comments;
    if (kind === 'files') return pools.files;
    // Calendar secrets are UUIDs that name no row of any other kind: people's ids are not them.
    if (kind === 'calendar') return pools.users;
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

function schemaOf(
  doc: OpenApiDoc,
  operation: Operation,
): { properties?: Record<string, unknown> } | undefined {
  const resolve = (schema: unknown): unknown => {
    const ref = (schema as { $ref?: string } | undefined)?.$ref;
    return ref ? resolve(resolvePointer(doc, ref)) : schema;
  };
  return resolve(operation.requestBody?.content['application/json']?.schema) as
    { properties?: Record<string, unknown> } | undefined;
}

function jsonBodyArb(
  doc: OpenApiDoc,
  operation: Operation,
  pools: Pools,
  where: string,
): fc.Arbitrary<Body> {
  const schema = schemaOf(doc, operation) as
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

/** Requests to one documented operation, from any caller, with any params, query and body. */
export function requestArb(
  doc: OpenApiDoc,
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
      ? jsonBodyArb(doc, operation, pools, where)
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

/** What fast-check prints for a failing request: short enough to read. */
export function describeRequest(r: FuzzRequest): string {
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
