import http, { type Server } from 'node:http';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenApiDocument } from '../../src/openapi/document.js';
import { encodeSegment } from '../fuzz/requests.js';
import {
  operationsOf,
  resolvePointer,
  type OpenApiDoc,
  type Operation,
} from '../helpers/openapi.js';
import { buildWorld, type World } from '../helpers/security-world.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

/**
 * Adversarial long strings in every text field of every documented operation: the shapes that
 * make backtracking patterns take quadratic or exponential time (a long run that ends in a
 * character that does not match, such as the "a@" + dots + "@" that froze the server). Each is
 * sent at 100,000 characters (over every field's length; the auth routes refuse such a body by its
 * size) and at 15,000 (under the auth routes' body limit, so their schemas see it), in the body,
 * the query and the path. No request may answer 5xx or take more than a second (at the fastest of
 * three tries, when the first is slower): one slow request holds the event loop for everyone. The
 * slowest figures are printed.
 */

const DOC = createOpenApiDocument() as unknown as OpenApiDoc;
/** Generous: a linear check of 100 KB takes well under a millisecond. */
const MAX_MS = 1_000;

/** Each shape, `n` characters long or about. */
const SHAPES: Record<string, (n: number) => string> = {
  'e-mail dots': (n) => `a@${'.'.repeat(n)}@`,
  'letters then !': (n) => `${'a'.repeat(n)}!`,
  'spaces then x': (n) => `${' '.repeat(n)}x`,
  tabs: (n) => '\t'.repeat(n),
  'digits then x': (n) => `${'1'.repeat(n)}x`,
  'date then zeros': (n) => `2030-01-01T${'0'.repeat(n)}`,
  'host labels': (n) => `https://${'a.'.repeat(n / 2)}!`,
  'host:port digits': (n) => `x.y:${'1'.repeat(n)}/ `,
  'scheme-like': (n) => `${'a'.repeat(n)}:`,
  base64url: (n) => `${'A'.repeat(n)}=`,
  'lone surrogates': (n) => '\ud800'.repeat(n),
  'control characters': (n) => '\u0001'.repeat(n),
  'at signs': (n) => '@'.repeat(n),
  dashes: (n) => `${'-'.repeat(n)}!`,
};
const SIZES = [100_000, 15_000];

/**
 * The shape as long as a URL can carry it, encoded: a URL over Node's 16 KB header limit never
 * reaches the app.
 */
function inUrl(make: (n: number) => string): string {
  for (let n = 8_000; ; n = Math.floor(n / 2)) {
    const encoded = encodeSegment(make(n));
    if (encoded.length <= 12_000 || n < 100) return encoded;
  }
}

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
};

function resolve(schema: Schema | undefined): Schema | undefined {
  return schema?.$ref ? resolve(resolvePointer(DOC, schema.$ref) as Schema) : schema;
}

/**
 * The value that puts `text` in the place of a string in `schema`: the string itself, an array
 * holding it, or an object whose every text field holds it.
 */
function carrying(schema: Schema | undefined, text: string, depth = 0): unknown {
  const resolved = resolve(schema);
  const variant = resolved?.anyOf?.[0] ?? resolved?.oneOf?.[0];
  if (variant) return carrying(variant, text, depth);
  const type = Array.isArray(resolved?.type) ? resolved.type[0] : resolved?.type;
  if (type === 'array') return [carrying(resolved?.items, text, depth + 1)];
  if (type === 'object' && depth < 3) {
    return Object.fromEntries(
      Object.entries(resolved?.properties ?? {}).map(([key, inner]) => [
        key,
        carrying(inner, text, depth + 1),
      ]),
    );
  }
  return text;
}

function bodyFields(operation: Operation): Array<[string, Schema]> {
  const schema = resolve(operation.requestBody?.content['application/json']?.schema as Schema);
  return Object.entries(schema?.properties ?? {});
}

describe(`adversarial long strings in every field (${ENGINE})`, () => {
  let ctx: TestContext;
  let server: Server;
  let api: ReturnType<typeof request>;
  let world: World;
  const timings: Array<{ label: string; ms: number; status: number }> = [];

  beforeAll(async () => {
    ctx = await createTestContext();
    world = await buildWorld(ctx);
    // One server for every request (supertest would start one per request).
    server = http.createServer(ctx.app);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    api = request(server);
  });
  afterAll(async () => {
    const slowest = [...timings].sort((a, b) => b.ms - a.ms).slice(0, 5);
    const sorted = timings.map((t) => t.ms).sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
    console.info(
      `adversarial strings (${ENGINE}): ${timings.length} requests, median ${median.toFixed(1)} ms, ` +
        `slowest:\n${slowest.map((t) => `  ${t.ms.toFixed(1)} ms  ${t.status}  ${t.label}`).join('\n')}`,
    );
    await new Promise((done) => server.close(done));
    await ctx.close();
  });

  /** Path ids that exist, so the request reaches the body's validation. */
  function pathFor(path: string, override?: string): string {
    const ids: Record<string, string> = {
      id: path.startsWith('/api/users') ? world.M1.id : world.T1._id,
      itemId: world.T1.todoChecklist[0]!._id,
    };
    if (path.startsWith('/api/images')) ids.id = world.imageId;
    return path.replace(/\{(\w+)\}/g, (_match, name: string) => override ?? ids[name] ?? name);
  }

  /**
   * Sends the request and holds its answer to the bounds. One slower than MAX_MS is sent twice
   * more and judged by its fastest: a backtracking pattern is slow every time, while a pause of
   * the shared machine (a collection, another suite's burst on the same two cores) is not.
   */
  async function timed(label: string, send: () => request.Test) {
    let fastest = Number.POSITIVE_INFINITY;
    let status = 0;
    for (let attempt = 0; attempt < 3 && fastest >= MAX_MS; attempt += 1) {
      const started = performance.now();
      const res = await send();
      fastest = Math.min(fastest, performance.now() - started);
      status = res.status;
      expect(
        res.status,
        `${label}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`,
      ).toBeLessThan(500);
    }
    timings.push({ label, ms: fastest, status });
    expect(fastest, `${label} took ${fastest.toFixed(0)} ms, three times`).toBeLessThan(MAX_MS);
  }

  /** The operations that take any text: a body, a query or a path parameter. */
  const operations = operationsOf(DOC).filter(
    ({ path, operation }) =>
      path.includes('{') ||
      (operation.parameters ?? []).some((param) => param.in === 'query') ||
      bodyFields(operation).length > 0,
  );

  it.each(operations.map((entry) => [`${entry.method.toUpperCase()} ${entry.path}`, entry]))(
    '%s',
    async (_name, { method, path, operation }) => {
      const verb = method as 'get' | 'put' | 'post' | 'patch' | 'delete';
      const auth = operation.security?.length ? world.A1.auth : {};
      const json = 'application/json' in (operation.requestBody?.content ?? {});
      const fields = json ? bodyFields(operation) : [];
      const query = (operation.parameters ?? []).filter((param) => param.in === 'query');
      const hasPathParams = path.includes('{');

      for (const [shape, make] of Object.entries(SHAPES)) {
        for (const size of SIZES) {
          const text = make(size);
          for (const [field, schema] of fields) {
            await timed(`${method.toUpperCase()} ${path} body.${field} ${shape} ×${size}`, () =>
              api[verb](pathFor(path))
                .set(auth)
                .send({ [field]: carrying(schema, text) }),
            );
          }
        }
        const short = inUrl(make);
        for (const param of query) {
          await timed(`${method.toUpperCase()} ${path} ?${param.name} ${shape}`, () =>
            api[verb](`${pathFor(path)}?${param.name}=${short}`).set(auth),
          );
        }
        if (hasPathParams) {
          await timed(`${method.toUpperCase()} ${path} path ${shape}`, () =>
            api[verb](pathFor(path, short)).set(auth),
          );
        }
      }
    },
  );
});
