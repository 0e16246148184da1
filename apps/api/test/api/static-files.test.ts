import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import express from 'express';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiMessages } from '@task-manager/shared';
import { createApp } from '../../src/app.js';
import { errorHandler } from '../../src/http/error-handler.js';
import { signUp } from '../helpers/factories.js';
import { tempDir } from '../helpers/server-process.js';
import { createTestContext, ENGINE, testConfig, type TestContext } from '../helpers/test-app.js';

/**
 * The built web app's files: a missing one is a 404, never the SPA's index.html and never a
 * 500; source maps are never served; and every 4xx a middleware raises (serve-static and send,
 * body-parser, http-errors) answers its own status as JSON with a message that says nothing
 * about the server's folders.
 */

const INDEX = '<!doctype html><html><body><div id="root"></div></body></html>';

/** A built web app in miniature, with the source maps a build may leave beside the files. */
function fakeWebDist(): string {
  const dir = tempDir();
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), INDEX);
  fs.writeFileSync(path.join(dir, 'assets', 'app-1a2b3c.js'), 'console.log("app");');
  fs.writeFileSync(path.join(dir, 'assets', 'app-1a2b3c.js.map'), '{"version":3,"sources":[]}');
  fs.writeFileSync(path.join(dir, 'assets', 'app-1a2b3c.css'), 'body{margin:0}');
  fs.writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  fs.writeFileSync(path.join(dir, 'root-chunk.js.map'), '{"version":3,"sources":[]}');
  return dir;
}

describe(`static files of the web app (${ENGINE})`, () => {
  let ctx: TestContext;
  let webDistDir: string;
  let api: ReturnType<typeof request>;
  const logLines: Array<{ level: number; msg?: string }> = [];

  beforeAll(async () => {
    ctx = await createTestContext();
    webDistDir = fakeWebDist();
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean))
          logLines.push(JSON.parse(line));
        done();
      },
    });
    api = request(
      createApp({
        db: ctx.db,
        config: { ...testConfig, webDistDir },
        logger: pino({ level: 'info' }, sink),
      }),
    );
  });
  afterAll(async () => {
    await ctx.close();
    fs.rmSync(webDistDir, { recursive: true, force: true });
  });
  beforeEach(() => {
    logLines.length = 0;
  });

  /** No error-level log: a refused request is not a server fault. */
  const expectNoErrorLog = () =>
    expect(logLines.filter((line) => line.level >= 50).map((line) => line.msg)).toEqual([]);

  it('serves what exists: an asset, a file at the root, index.html for deep links', async () => {
    const asset = await api.get('/assets/app-1a2b3c.js').expect(200);
    expect(asset.text).toBe('console.log("app");');
    await api.get('/favicon.svg').expect(200);
    const deepLink = await api.get('/admin/tasks/123').expect(200);
    expect(deepLink.headers['content-type']).toMatch(/^text\/html/);
    expect(deepLink.text).toBe(INDEX);
  });

  it.each(['/assets/missing.js', '/assets/app-0000.css', '/assets/nested/deep/x.js'])(
    'GET %s: 404 as JSON, not index.html and not a 500',
    async (url) => {
      const res = await api.get(url).expect(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual({ message: apiMessages.notFound, code: expect.any(String) });
      // Never the folder the files are served from.
      expect(res.text).not.toContain(webDistDir);
      expectNoErrorLog();
    },
  );

  it('HEAD of a missing asset is a 404 too', async () => {
    await api.head('/assets/missing.js').expect(404);
    expectNoErrorLog();
  });

  it.each(['/assets', '/assets/'])('GET %s (the folder itself) is no 500', async (url) => {
    const res = await api.get(url).redirects(0);
    expect(res.status).toBeGreaterThanOrEqual(300);
    expect(res.status).toBeLessThan(500);
    expect(res.text).not.toBe(INDEX);
    expectNoErrorLog();
  });

  it.each([
    '/assets/app-1a2b3c.js.map',
    '/root-chunk.js.map',
    '/assets/missing.js.map',
    '/assets/app-1a2b3c.js.ma%70',
    '/assets/app-1a2b3c.js%2Emap',
    '/assets/app-1a2b3c.js.MAP',
    '/assets/app-1a2b3c.js.map?x=1',
  ])('GET %s: source maps are never served (404)', async (url) => {
    const res = await api.get(url).expect(404);
    expect(res.body).toEqual({ message: apiMessages.notFound, code: expect.any(String) });
    expect(res.text).not.toContain('"version":3');
  });

  it('a path that climbs out of /assets is refused, not served', async () => {
    const res = await api.get('/assets/..%2f..%2findex.html');
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body).toEqual({ message: expect.any(String), code: expect.any(String) });
    expectNoErrorLog();
  });

  it('a malformed %-escape in an asset path is a 400', async () => {
    const res = await api.get('/assets/%E0%A4%A.js').expect(400);
    expect(res.body).toEqual({ message: expect.any(String), code: expect.any(String) });
    expectNoErrorLog();
  });

  it('POST to an asset answers 405 with Allow (serve-static answers it itself)', async () => {
    const res = await api.post('/assets/app-1a2b3c.js').send('x').expect(405);
    expect(res.headers['allow']).toBe('GET, HEAD');
    expectNoErrorLog();
  });

  it('a range past the end of an asset answers 416 with its Content-Range', async () => {
    const res = await api.get('/assets/app-1a2b3c.js').set('Range', 'bytes=5000-6000').expect(416);
    expect(res.headers['content-range']).toBe('bytes */19');
    expect(res.body).toEqual({ message: expect.any(String), code: expect.any(String) });
    // Not the file's headers: an error is neither JavaScript nor cached for a year.
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBeUndefined();
    expect(res.headers['last-modified']).toBeUndefined();
    expectNoErrorLog();
  });

  it('a body in a charset or encoding the API does not read is a 415 (body-parser)', async () => {
    const admin = await signUp(ctx, 'admin');
    const charset = await api
      .post('/api/tasks')
      .set(admin.auth)
      .set('Content-Type', 'application/json; charset=x-unknown')
      .send('{}')
      .expect(415);
    expect(charset.body).toEqual({ message: expect.any(String), code: expect.any(String) });
    const encoding = await api
      .post('/api/tasks')
      .set(admin.auth)
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'x-unknown')
      .send('{}')
      .expect(415);
    expect(encoding.body).toEqual({ message: expect.any(String), code: expect.any(String) });
    expectNoErrorLog();
  });
});

describe('the error handler, for errors that middleware raises', () => {
  /** An app whose only route fails with `error`, as a middleware would hand it on. */
  const failingWith = (error: unknown) => {
    const app = express();
    app.get('/x', (_req, _res, next) => next(error));
    app.use(errorHandler(pino({ level: 'silent' })));
    return request(app);
  };
  /** What http-errors builds: a status, and `expose` false when the message is internal. */
  const httpError = (status: number, message: string, extra: Record<string, unknown> = {}) =>
    Object.assign(new Error(message), {
      status,
      statusCode: status,
      expose: status < 500,
      ...extra,
    });

  it('answers a 4xx with its own status, and its message when it may be shown', async () => {
    const res = await failingWith(httpError(409, 'Already there')).get('/x').expect(409);
    expect(res.body).toEqual({ message: 'Already there', code: expect.any(String) });
  });

  it('answers a 4xx whose message is internal with a generic one (no paths)', async () => {
    const notFound = httpError(404, "ENOENT: no such file or directory, stat '/srv/app/x.js'", {
      expose: false,
    });
    const res = await failingWith(notFound).get('/x').expect(404);
    expect(res.body).toEqual({ message: apiMessages.notFound, code: expect.any(String) });
    const gone = await failingWith(httpError(410, 'internal', { expose: false }))
      .get('/x')
      .expect(410);
    expect(gone.body).toEqual({ message: 'Gone', code: expect.any(String) });
  });

  it('reads `statusCode` when there is no `status`', async () => {
    const error = Object.assign(new Error('Unavailable For Legal Reasons'), { statusCode: 451 });
    const res = await failingWith(error).get('/x').expect(451);
    expect(res.body).toEqual({
      message: 'Unavailable For Legal Reasons',
      code: expect.any(String),
    });
  });

  it('sends the headers the error carries (Allow, Content-Range)', async () => {
    const res = await failingWith(
      httpError(416, 'Range Not Satisfiable', { headers: { 'Content-Range': 'bytes */10' } }),
    )
      .get('/x')
      .expect(416);
    expect(res.headers['content-range']).toBe('bytes */10');
  });

  it('still answers anything else 500 with no detail', async () => {
    for (const error of [
      httpError(500, 'internal detail', { expose: false }),
      httpError(502, 'upstream detail', { expose: false }),
      new Error('a bug'),
      Object.assign(new Error('odd'), { status: 99 }),
      Object.assign(new Error('odd'), { status: '404' }),
    ]) {
      const res = await failingWith(error).get('/x').expect(500);
      expect(res.body).toEqual({ message: apiMessages.serverError, code: expect.any(String) });
    }
  });
});
