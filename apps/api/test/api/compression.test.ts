import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import {
  compressAnswers,
  COMPRESSION_THRESHOLD_BYTES,
  sendJson,
  WHOLE_COMPRESSION_MAX_BYTES,
} from '../../src/http/compression.js';
import { answersJson, endpointRouter, type AnyEndpoint } from '../../src/http/endpoint.js';
import { createTask, signUp } from '../helpers/factories.js';
import { tempDir } from '../helpers/server-process.js';
import { createTestContext, ENGINE, testConfig, type TestContext } from '../helpers/test-app.js';
import { pino } from 'pino';

/**
 * Over real HTTP, the bytes as they leave the server: the build's precompressed files sent with
 * their Content-Encoding, Vary and Cache-Control; JSON compressed when large enough; an event
 * stream never compressed nor held back.
 */

const INDEX = `<!doctype html><html><head><meta property="csp-nonce" nonce="CSP_NONCE_PLACEHOLDER"></head><body><div id="root"></div>${'<!-- padding -->'.repeat(100)}</body></html>`;
const APP_JS = `console.log(${JSON.stringify('the app '.repeat(500))});`;
const SMALL_JS = 'console.log(1);';
const ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg">${'<g/>'.repeat(400)}</svg>`;

const MANIFEST = JSON.stringify({ name: 'Task Manager', icons: [], padding: 'm'.repeat(2000) });

/** A built web app in miniature, with the copies the build's compression step writes. */
function fakeWebDist(): string {
  const dir = tempDir();
  fs.mkdirSync(path.join(dir, 'assets'));
  const write = (name: string, text: string, compressed = true) => {
    fs.writeFileSync(path.join(dir, name), text);
    if (!compressed) return;
    fs.writeFileSync(path.join(dir, `${name}.br`), zlib.brotliCompressSync(text));
    fs.writeFileSync(path.join(dir, `${name}.gz`), zlib.gzipSync(text));
  };
  write('index.html', INDEX, false);
  write('assets/app-1a2b3c.js', APP_JS);
  write('assets/tiny-9f8e7d.js', SMALL_JS, false);
  write('favicon.svg', ICON_SVG);
  write('manifest.webmanifest', MANIFEST);
  fs.mkdirSync(path.join(dir, '.vite'));
  fs.writeFileSync(
    path.join(dir, '.vite/route-preloads.json'),
    JSON.stringify({
      '/admin/dashboard': ['/assets/dashboard-1a2b.js', '/assets/charts-3c4d.js'],
      // Anything but a plain asset path is left out.
      '/login': ['/assets/login-5e6f.js', '/assets/"><script>alert(1)</script>.js'],
    }),
  );
  return dir;
}

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The bytes as sent, before any decoding. */
  raw: Buffer;
  /** The body after undoing its Content-Encoding. */
  text: string;
}

function decode(raw: Buffer, encoding: string | undefined): Buffer {
  if (encoding === undefined || raw.length === 0) return raw;
  if (encoding === 'br') return zlib.brotliDecompressSync(raw);
  if (encoding === 'gzip') return zlib.gunzipSync(raw);
  if (encoding === 'deflate') return zlib.inflateSync(raw);
  throw new Error(`unexpected Content-Encoding ${encoding}`);
}

function get(
  server: http.Server,
  urlPath: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<RawAnswer> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    http
      .request({ host: '127.0.0.1', port, path: urlPath, method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          const encoding = res.headers['content-encoding'];
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            raw,
            text: decode(raw, encoding).toString('utf8'),
          });
        });
      })
      .on('error', reject)
      .end();
  });
}

function listen(app: express.Express): Promise<http.Server> {
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve(server));
  });
}

const CHROME = 'gzip, deflate, br, zstd';
const IMMUTABLE = 'public, max-age=31536000, immutable';
const varies = (answer: RawAnswer) =>
  String(answer.headers['vary'] ?? '')
    .toLowerCase()
    .split(/\s*,\s*/)
    .includes('accept-encoding');

describe(`compression and caching over HTTP (${ENGINE})`, () => {
  let ctx: TestContext;
  let dir: string;
  let server: http.Server;

  beforeAll(async () => {
    ctx = await createTestContext();
    dir = fakeWebDist();
    server = await listen(
      createApp({
        db: ctx.db,
        config: { ...testConfig, webDistDir: dir },
        logger: pino({ level: 'silent' }),
      }),
    );
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await ctx.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a hashed asset: brotli for a browser that takes it, even listed after gzip', async () => {
    const res = await get(server, '/assets/app-1a2b3c.js', { 'Accept-Encoding': CHROME });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    expect(varies(res)).toBe(true);
    expect(res.text).toBe(APP_JS);
    expect(res.raw.length).toBe(fs.statSync(path.join(dir, 'assets/app-1a2b3c.js.br')).size);
    expect(Number(res.headers['content-length'])).toBe(res.raw.length);
  });

  it('gzip when brotli is not accepted (or refused with q=0)', async () => {
    for (const accept of ['gzip', 'gzip, br;q=0', 'deflate, gzip;q=0.5']) {
      const res = await get(server, '/assets/app-1a2b3c.js', { 'Accept-Encoding': accept });
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(res.headers['cache-control']).toBe(IMMUTABLE);
      expect(varies(res)).toBe(true);
      expect(res.text).toBe(APP_JS);
    }
  });

  it('the file as it is when no encoding is accepted, still varying by Accept-Encoding', async () => {
    for (const headers of [{}, { 'Accept-Encoding': 'identity' }] as Array<
      Record<string, string>
    >) {
      const res = await get(server, '/assets/app-1a2b3c.js', headers);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.raw.toString('utf8')).toBe(APP_JS);
      expect(res.headers['cache-control']).toBe(IMMUTABLE);
      expect(varies(res)).toBe(true);
    }
  });

  it('HEAD names the same encoding and length as GET, with no body', async () => {
    const head = await get(server, '/assets/app-1a2b3c.js', { 'Accept-Encoding': 'br' }, 'HEAD');
    expect(head.headers['content-encoding']).toBe('br');
    expect(Number(head.headers['content-length'])).toBe(
      fs.statSync(path.join(dir, 'assets/app-1a2b3c.js.br')).size,
    );
    expect(head.raw.length).toBe(0);
  });

  it('an asset too small to have copies is sent as it is, cached for a year', async () => {
    const res = await get(server, '/assets/tiny-9f8e7d.js', { 'Accept-Encoding': CHROME });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.text).toBe(SMALL_JS);
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
  });

  it('a file of fixed name at the root: its copy, cached an hour (not immutable)', async () => {
    const res = await get(server, '/favicon.svg', { 'Accept-Encoding': CHROME });
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.text).toBe(ICON_SVG);
  });

  it('the web app manifest: its own type (application/manifest+json), compressed', async () => {
    const res = await get(server, '/manifest.webmanifest', { 'Accept-Encoding': CHROME });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(res.headers['content-encoding']).toBe('br');
    expect(JSON.parse(res.text)).toEqual(JSON.parse(MANIFEST));
  });

  it('a missing asset is still a plain JSON 404 (no encoding of a file, no year of caching)', async () => {
    const res = await get(server, '/assets/missing-000.js', { 'Accept-Encoding': 'identity' });
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBeUndefined();
  });

  it('index.html (and every deep link): no-cache, compressed on the fly, nonce in place', async () => {
    for (const urlPath of ['/', '/index.html', '/admin/dashboard']) {
      const res = await get(server, urlPath, { 'Accept-Encoding': CHROME });
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-encoding']).toBe('br');
      expect(varies(res)).toBe(true);
      expect(res.text).not.toContain('CSP_NONCE_PLACEHOLDER');
      expect(res.text).toContain('<div id="root">');
    }
  });

  it('a landing page names its chunks in index.html (modulepreload, with the nonce)', async () => {
    const dashboard = await get(server, '/admin/dashboard');
    const nonce = /<meta property="csp-nonce" nonce="([^"]+)"/.exec(dashboard.text)?.[1];
    expect(nonce).toBeTruthy();
    expect(dashboard.text).toContain(
      `<link rel="modulepreload" crossorigin href="/assets/dashboard-1a2b.js" nonce="${nonce}">` +
        `<link rel="modulepreload" crossorigin href="/assets/charts-3c4d.js" nonce="${nonce}"></head>`,
    );
    const login = await get(server, '/login');
    expect(login.text).toContain('href="/assets/login-5e6f.js"');
    expect(login.text).not.toContain('<script>');
    for (const other of ['/admin/tasks', '/']) {
      expect((await get(server, other)).text).not.toContain('modulepreload');
    }
    // The list itself is not served.
    const list = await get(server, '/.vite/route-preloads.json');
    expect(list.text).not.toContain('dashboard-1a2b');
  });

  it('a large JSON answer is compressed (brotli, else gzip); it decodes to the same JSON', async () => {
    const plain = await get(server, '/api/openapi.json');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.raw.length).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);
    const br = await get(server, '/api/openapi.json', { 'Accept-Encoding': CHROME });
    expect(br.headers['content-encoding']).toBe('br');
    expect(varies(br)).toBe(true);
    expect(br.raw.length).toBeLessThan(plain.raw.length / 4);
    expect(JSON.parse(br.text)).toEqual(JSON.parse(plain.text));
    const gzip = await get(server, '/api/openapi.json', { 'Accept-Encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gzip.text)).toEqual(JSON.parse(plain.text));
  });

  it("an endpoint's answer (one task) goes out compressed in one piece", async () => {
    const admin = await signUp(ctx, 'admin');
    const member = await signUp(ctx);
    const task = await createTask(ctx, admin, [member.id], {
      description:
        'A description long enough to make this answer larger than the threshold. '.repeat(10),
    });
    const plain = await get(server, `/api/tasks/${task._id}`, admin.auth);
    expect(plain.status).toBe(200);
    expect(plain.raw.length).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);
    expect(plain.raw.length).toBeLessThan(WHOLE_COMPRESSION_MAX_BYTES);
    const br = await get(server, `/api/tasks/${task._id}`, {
      ...admin.auth,
      'Accept-Encoding': CHROME,
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(Number(br.headers['content-length'])).toBe(br.raw.length);
    expect(br.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(br.text)).toEqual(JSON.parse(plain.text));
  });

  it('a small JSON answer goes out as it is', async () => {
    const res = await get(server, '/api/health', { 'Accept-Encoding': CHROME });
    expect(res.status).toBe(200);
    expect(res.raw.length).toBeLessThan(COMPRESSION_THRESHOLD_BYTES);
    expect(res.headers['content-encoding']).toBeUndefined();
    const missing = await get(server, '/api/no-such-thing', { 'Accept-Encoding': CHROME });
    expect(missing.status).toBe(404);
    expect(missing.headers['content-encoding']).toBeUndefined();
  });
});

describe('a JSON answer sent whole (sendJson)', () => {
  let server: http.Server;
  const json = (bytes: number) => JSON.stringify({ pad: 'x'.repeat(Math.max(0, bytes - 10)) });

  beforeAll(async () => {
    // No middleware: sendJson compresses by itself, and streams through the middleware what it
    // does not do in one piece.
    const app = express();
    app.all('/json/:bytes', (req, res) => {
      res.type('application/json');
      if (req.query.noTransform) res.setHeader('Cache-Control', 'no-transform');
      sendJson(req, res, json(Number(req.params.bytes)));
    });
    server = await listen(app);
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('is compressed in one piece: brotli for a browser, with its length, decoding to the same JSON', async () => {
    const res = await get(server, '/json/4000', { 'Accept-Encoding': CHROME });
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['transfer-encoding']).toBeUndefined();
    expect(Number(res.headers['content-length'])).toBe(res.raw.length);
    expect(res.raw.length).toBeLessThan(400);
    expect(varies(res)).toBe(true);
    expect(res.text).toBe(json(4000));
  });

  it('follows what the client accepts: gzip, or nothing', async () => {
    for (const [accepted, expected] of [
      ['gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      // Not done whole: the middleware's stream answers it.
      ['deflate', 'deflate'],
      ['identity', undefined],
    ] as const) {
      const res = await get(server, '/json/4000', { 'Accept-Encoding': accepted });
      expect(res.headers['content-encoding'], accepted).toBe(expected);
      expect(res.text, accepted).toBe(json(4000));
    }
    const none = await get(server, '/json/4000');
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.raw.toString()).toBe(json(4000));
    // What it is depends on what was accepted, compressed or not: a cache must know that.
    expect(varies(none)).toBe(true);
  });

  it('leaves small answers, HEAD and no-transform as they are', async () => {
    const small = await get(server, `/json/${COMPRESSION_THRESHOLD_BYTES - 100}`, {
      'Accept-Encoding': CHROME,
    });
    expect(small.headers['content-encoding']).toBeUndefined();
    const head = await get(server, '/json/4000', { 'Accept-Encoding': CHROME }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.raw.length).toBe(0);
    const kept = await get(server, '/json/4000?noTransform=1', { 'Accept-Encoding': CHROME });
    expect(kept.headers['content-encoding']).toBeUndefined();
    expect(kept.raw.toString()).toBe(json(4000));
  });

  it('leaves a larger answer to the middleware, compressed as a stream', async () => {
    const bytes = WHOLE_COMPRESSION_MAX_BYTES + 5000;
    const res = await get(server, `/json/${bytes}`, { 'Accept-Encoding': CHROME });
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(varies(res)).toBe(true);
    expect(res.text).toBe(json(bytes));
    const gzip = await get(server, `/json/${bytes}`, { 'Accept-Encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.text).toBe(json(bytes));
    const none = await get(server, `/json/${bytes}`);
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.raw.toString()).toBe(json(bytes));
  });
});

describe("the endpoints' answers (endpointRouter)", () => {
  const TEXT = 'a line of the feed\n'.repeat(400);
  const endpoint = (
    path: string,
    content: string,
    handler: AnyEndpoint['handler'],
  ): AnyEndpoint => ({
    method: 'get',
    path,
    operationId: path.slice(1),
    tags: [],
    summary: path,
    access: 'anyone',
    responses: { 200: { description: 'ok', content: { [content]: {} } } },
    handler,
  });
  const endpoints = [
    endpoint('/json', 'application/json', () => ({ pad: 'j'.repeat(5000) })),
    endpoint('/cards', 'application/vnd.task-manager.cards+json', () => ({
      pad: 'c'.repeat(5000),
    })),
    endpoint('/feed', 'text/calendar', ({ res }) => {
      res.type('text/calendar').send(TEXT);
      return undefined;
    }),
  ];
  let server: http.Server;

  beforeAll(async () => {
    const app = express();
    app.use(
      endpointRouter(endpoints, {
        services: {},
        middleware: {},
        requireAuth: (_req, _res, next) => next(),
        requireRole: () => (_req, _res, next) => next(),
      }),
    );
    server = await listen(app);
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('tells JSON answers from the others by their declared types', () => {
    expect(endpoints.map(answersJson)).toEqual([true, true, false]);
  });

  it('sends a JSON answer compressed in one piece, without the middleware', async () => {
    for (const path of ['/json', '/cards']) {
      const res = await get(server, path, { 'Accept-Encoding': CHROME });
      expect(res.headers['content-encoding'], path).toBe('br');
      expect(Number(res.headers['content-length']), path).toBe(res.raw.length);
      expect(JSON.parse(res.text), path).toEqual({ pad: expect.stringMatching(/^(j|c){5000}$/) });
    }
  });

  it('compresses an answer its handler writes itself (a feed) through the middleware', async () => {
    const res = await get(server, '/feed', { 'Accept-Encoding': 'gzip' });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(varies(res)).toBe(true);
    expect(res.raw.length).toBeLessThan(TEXT.length / 4);
    expect(res.text).toBe(TEXT);
    const plain = await get(server, '/feed');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.text).toBe(TEXT);
  });
});

describe('an event stream (Server-Sent Events)', () => {
  it('is never compressed, and each event arrives as it is written', async () => {
    let sendRest!: () => void;
    const restMayGo = new Promise<void>((resolve) => (sendRest = resolve));
    const firstEvent = `data: ${'x'.repeat(4 * COMPRESSION_THRESHOLD_BYTES)}\n\n`;
    const app = express();
    app.use(compressAnswers());
    app.get('/events', (_req, res) => {
      res.setHeader('Content-Type', 'text/event-stream');
      res.setHeader('Cache-Control', 'no-cache');
      res.flushHeaders();
      res.write(firstEvent);
      // The stream ends only once the client has seen the first event: held in a buffer, it
      // would never arrive, and this test would time out.
      void restMayGo.then(() => res.end('data: end\n\n'));
    });
    const server = await listen(app);
    try {
      const { port } = server.address() as AddressInfo;
      const answer = await new Promise<{ headers: http.IncomingHttpHeaders; body: string }>(
        (resolve, reject) => {
          http
            .get(
              { host: '127.0.0.1', port, path: '/events', headers: { 'Accept-Encoding': CHROME } },
              (res) => {
                let body = '';
                res.setEncoding('utf8');
                res.on('data', (chunk: string) => {
                  body += chunk;
                  if (body.length >= firstEvent.length) sendRest();
                });
                res.on('end', () => resolve({ headers: res.headers, body }));
              },
            )
            .on('error', reject);
        },
      );
      expect(answer.headers['content-encoding']).toBeUndefined();
      expect(answer.body).toBe(`${firstEvent}data: end\n\n`);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('other compressible answers through the same middleware are compressed', async () => {
    const app = express();
    app.use(compressAnswers());
    app.get('/text', (_req, res) => res.type('text').send('y'.repeat(5000)));
    const server = await listen(app);
    try {
      const res = await get(server, '/text', { 'Accept-Encoding': 'gzip' });
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(res.text).toBe('y'.repeat(5000));
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
