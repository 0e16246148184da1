import fs from 'node:fs';
import path from 'node:path';
import { pino } from 'pino';
import request, { type Response, type Test } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import type { AppConfig } from '../../src/config.js';
import { tempDir } from '../helpers/server-process.js';
import { createTestContext, ENGINE, testConfig, type TestContext } from '../helpers/test-app.js';

/** A built web app in miniature: what serveWebApp needs (index.html and an asset). */
function fakeWebDist(): string {
  const dir = tempDir();
  fs.mkdirSync(path.join(dir, 'assets'));
  // As vite writes it with html.cspNonce: the server puts each page's nonce in place of the text.
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html><head><meta property="csp-nonce" nonce="CSP_NONCE_PLACEHOLDER">' +
      '<script type="module" nonce="CSP_NONCE_PLACEHOLDER" src="/assets/app.js"></script></head>' +
      '<body><div id="root"></div></body></html>',
  );
  fs.writeFileSync(path.join(dir, 'assets', 'app.js'), 'console.log("app");');
  return dir;
}

/** A CSP nonce source: 128 random bits in base64. */
const NONCE_SOURCE = /^'nonce-([A-Za-z0-9+/]{22}==)'$/;

/** The directives of a Content-Security-Policy header, by name. */
function cspOf(res: Response): Map<string, string[]> {
  const header = res.headers['content-security-policy'];
  expect(header, 'Content-Security-Policy').toEqual(expect.any(String));
  return new Map(
    String(header)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

describe(`security headers (${ENGINE})`, () => {
  let ctx: TestContext;
  let webDistDir: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    webDistDir = fakeWebDist();
  });
  afterAll(async () => {
    await ctx.close();
    fs.rmSync(webDistDir, { recursive: true, force: true });
  });

  const appWith = (config: Partial<AppConfig> = {}) =>
    request(
      createApp({
        db: ctx.db,
        config: { ...testConfig, webDistDir, ...config },
        logger: pino({ level: 'silent' }),
      }),
    );

  /** The web app's pages and files, and API answers of several kinds. */
  const targets: [string, (api: ReturnType<typeof appWith>) => Test][] = [
    ['the web app (index.html)', (api) => api.get('/')],
    ['a deep link of the web app', (api) => api.get('/admin/tasks/123')],
    ['a web app asset', (api) => api.get('/assets/app.js')],
    ['GET /api/health', (api) => api.get('/api/health')],
    [
      'a refused sign-in',
      (api) => api.post('/api/auth/login').send({ email: 'a@b.co', password: 'x' }),
    ],
    ['an unknown API path', (api) => api.get('/api/no-such-thing')],
  ];

  it('serves the web app at all (so the checks below are about it)', async () => {
    const res = await appWith().get('/').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('<div id="root">');
    await appWith().get('/assets/app.js').expect(200);
  });

  it.each(targets)('%s: a strict Content-Security-Policy', async (_name, send) => {
    const csp = cspOf(await send(appWith()));
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    // Scripts only from this origin's files: no inline script, no eval, no other host.
    const scriptSrc = csp.get('script-src') ?? csp.get('default-src');
    expect(scriptSrc).toEqual(["'self'"]);
    expect(csp.get('script-src-attr') ?? ["'none'"]).toEqual(["'none'"]);
    // Styles: this origin's stylesheets, and inline ones only with this answer's nonce (the
    // toasts' <style>); never any https: host or 'unsafe-inline' (helmet's defaults). Fonts: ours.
    expect(csp.get('style-src')).toEqual(["'self'", expect.stringMatching(NONCE_SOURCE)]);
    expect(csp.get('font-src')).toEqual(["'self'"]);
    for (const [name, values] of csp) {
      expect(values, name).not.toContain("'unsafe-inline'");
      expect(values, name).not.toContain("'unsafe-eval'");
    }
  });

  it('gives every answer its own style nonce, and the page carries the one of its header', async () => {
    const api = appWith();
    const pages = [
      await api.get('/').expect(200),
      await api.get('/admin/tasks/123').expect(200),
      await api.get('/index.html').expect(200),
    ];
    const nonces = pages.map((res) => NONCE_SOURCE.exec(cspOf(res).get('style-src')![1]!)![1]!);
    expect(new Set(nonces).size).toBe(pages.length);
    for (const [i, res] of pages.entries()) {
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).not.toContain('CSP_NONCE_PLACEHOLDER');
      expect(res.text).toContain(`<meta property="csp-nonce" nonce="${nonces[i]}">`);
      expect(res.text).toContain(`<script type="module" nonce="${nonces[i]}"`);
    }
  });

  it('never gives two answers the same nonce, across many more answers than one draw of random bytes', async () => {
    const api = appWith();
    const nonces = new Set<string>();
    // The nonces come from a pool of 256 refilled from the CSPRNG: cross its refill twice.
    for (let i = 0; i < 600; i++) {
      const res = await api.get('/api/health');
      nonces.add(NONCE_SOURCE.exec(cspOf(res).get('style-src')![1]!)![1]!);
    }
    expect(nonces.size).toBe(600);
  });

  it.each(targets)(
    '%s: images only from this server (and previews): no photo calls an address a member chose',
    async (_name, send) => {
      const csp = cspOf(await send(appWith()));
      expect(csp.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
    },
  );

  it.each(targets)('%s: nosniff, a Referrer-Policy, no X-Powered-By', async (_name, send) => {
    const res = await send(appWith());
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    // Links to other sites must not carry our paths (task ids) along.
    expect([
      'no-referrer',
      'same-origin',
      'strict-origin',
      'strict-origin-when-cross-origin',
    ]).toContain(res.headers['referrer-policy']);
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  describe('Strict-Transport-Security: only for a request that came over HTTPS', () => {
    it.each(targets)('%s: none over plain HTTP', async (_name, send) => {
      const res = await send(appWith());
      expect(res.headers['strict-transport-security']).toBeUndefined();
    });

    it.each(targets)(
      '%s: none when X-Forwarded-Proto comes from an untrusted client',
      async (_name, send) => {
        const res = await send(appWith({ trustProxy: false })).set('X-Forwarded-Proto', 'https');
        expect(res.headers['strict-transport-security']).toBeUndefined();
      },
    );

    it.each(targets)('%s: sent behind a trusted TLS proxy', async (_name, send) => {
      const res = await send(appWith({ trustProxy: 1 })).set('X-Forwarded-Proto', 'https');
      const hsts = String(res.headers['strict-transport-security']);
      const maxAge = Number(/max-age=(\d+)/.exec(hsts)?.[1]);
      expect(maxAge).toBeGreaterThanOrEqual(31_536_000);
    });

    it('none behind a trusted proxy that says the request was plain HTTP', async () => {
      const res = await appWith({ trustProxy: 1 })
        .get('/api/health')
        .set('X-Forwarded-Proto', 'http');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    });
  });

  describe('CORS', () => {
    const foreign = 'https://evil.example';
    const allowed = 'https://tasks.example.com';

    function preflight(api: ReturnType<typeof appWith>, origin: string) {
      return api
        .options('/api/tasks')
        .set('Origin', origin)
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'authorization,content-type');
    }

    it('is closed by default: no Access-Control-Allow-Origin for another origin', async () => {
      const api = appWith({ corsOrigins: [] });
      for (const res of [
        await api.get('/api/health').set('Origin', foreign),
        await api.post('/api/auth/login').set('Origin', foreign).send({}),
        await preflight(api, foreign),
        await preflight(api, allowed),
      ]) {
        expect(res.headers['access-control-allow-origin']).toBeUndefined();
        expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      }
    });

    it('opens only to the origins in CORS_ORIGIN', async () => {
      const api = appWith({ corsOrigins: [allowed, 'http://localhost:5173'] });

      const simple = await api.get('/api/health').set('Origin', allowed).expect(200);
      expect(simple.headers['access-control-allow-origin']).toBe(allowed);
      // A cache must not hand one origin's answer to another.
      expect(String(simple.headers['vary'])).toMatch(/\borigin\b/i);
      expect(simple.headers['access-control-allow-credentials']).toBeUndefined();

      const ok = await preflight(api, allowed);
      expect(ok.status).toBe(204);
      expect(ok.headers['access-control-allow-origin']).toBe(allowed);
      expect(String(ok.headers['access-control-allow-headers']).toLowerCase()).toContain(
        'authorization',
      );

      for (const res of [
        await api.get('/api/health').set('Origin', foreign),
        await preflight(api, foreign),
        // An origin is compared whole: a look-alike host or another scheme is another origin.
        await api.get('/api/health').set('Origin', 'https://tasks.example.com.evil.example'),
        await api.get('/api/health').set('Origin', 'http://tasks.example.com'),
      ]) {
        expect(res.headers['access-control-allow-origin']).toBeUndefined();
      }
    });
  });
});
