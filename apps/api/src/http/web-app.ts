import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { randomFillSync } from 'node:crypto';
import express, { type RequestHandler } from 'express';
import { apiMessages } from '@task-manager/shared';
import { NotFound } from '../errors.js';

/**
 * The encodings the build writes beside each file worth compressing (apps/web/vite.config.ts:
 * app.js.br, app.js.gz), in the order they are preferred: brotli is about 15 % smaller.
 */
export const PRECOMPRESSED = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;

/** Every file under `dir`, as the URL path that names it (`/assets/app-1a2b.js`). */
function urlPaths(dir: string, prefix = ''): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const urlPath = `${prefix}/${entry.name}`;
    if (entry.isDirectory()) return urlPaths(path.join(dir, entry.name), urlPath);
    return entry.isFile() ? [urlPath] : [];
  });
}

/**
 * Sends a file's precompressed copy when the browser accepts its encoding: the request is
 * pointed at `app.js.br`, and the static server's `setHeaders` below names the encoding and
 * the original type. Which copies exist is read once, like index.html (a new build comes with
 * a restart). Every file that has copies varies by Accept-Encoding, whichever one is sent.
 */
function precompressedFiles(dir: string): RequestHandler {
  const files = new Set(urlPaths(dir));
  const variants = new Map<string, Array<(typeof PRECOMPRESSED)[number]>>();
  for (const file of files) {
    const found = PRECOMPRESSED.filter(({ suffix }) => files.has(file + suffix));
    if (found.length > 0) variants.set(file, found);
  }
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const found = variants.get(req.path);
    if (!found) return next();
    res.vary('Accept-Encoding');
    const chosen = found.find(({ encoding }) => req.acceptsEncodings(encoding) === encoding);
    if (chosen) {
      const query = req.url.indexOf('?');
      req.url =
        query < 0
          ? req.url + chosen.suffix
          : req.url.slice(0, query) + chosen.suffix + req.url.slice(query);
    }
    next();
  };
}

/** The static server's headers for a precompressed copy: its encoding, the original's type. */
function setEncodingHeaders(res: ServerResponse, filePath: string) {
  const variant = PRECOMPRESSED.find(({ suffix }) => filePath.endsWith(suffix));
  if (!variant) return;
  res.setHeader('Content-Encoding', variant.encoding);
  const original = filePath.slice(0, -variant.suffix.length);
  (res as express.Response).type(path.extname(original) || 'application/octet-stream');
}

/**
 * What vite writes where each page's nonce goes (apps/web/vite.config.ts, html.cspNonce): in the
 * nonce="…" of every <script>, <link> and <style> it emits, and in <meta property="csp-nonce">.
 */
export const CSP_NONCE_PLACEHOLDER = 'CSP_NONCE_PLACEHOLDER';

const NONCE_BYTES = 16;
/** Random bytes drawn a few hundred nonces at a time: one call to the CSPRNG per 256 answers. */
const noncePool = Buffer.alloc(NONCE_BYTES * 256);
let nonceOffset = noncePool.length;

/** A fresh nonce for each answer (128 random bits), for the CSP header and the page alike. */
export const cspNonce: RequestHandler = (_req, res, next) => {
  if (nonceOffset === noncePool.length) {
    randomFillSync(noncePool);
    nonceOffset = 0;
  }
  res.locals.cspNonce = noncePool.toString('base64', nonceOffset, (nonceOffset += NONCE_BYTES));
  next();
};

/**
 * The style-src source for this answer: its nonce. The web app needs one inline <style>:
 * goober's, which react-hot-toast styles its toasts with; it carries this nonce (apps/web,
 * csp-setup.ts), so no other inline style, injected or not, is applied ('unsafe-inline' is not
 * needed). React's style props go through the CSSOM, which CSP does not restrict.
 */
export function styleNonceSource(_req: IncomingMessage, res: ServerResponse): string {
  return `'nonce-${(res as express.Response).locals.cspNonce as string}'`;
}

/** Where the build lists each landing page's chunks (apps/web/vite.config.ts): never served. */
export const ROUTE_PRELOADS_FILE = '.vite/route-preloads.json';

/**
 * For each landing page (/admin/dashboard...), the <link rel="modulepreload"> tags of the chunks
 * it needs beyond the main one, so that a first visit downloads them alongside the main chunk
 * instead of once it has run (on a slow link, one whole transfer later). A build without the list
 * simply gets none.
 */
function landingPagePreloads(dir: string): Map<string, string> {
  const file = path.join(dir, ROUTE_PRELOADS_FILE);
  if (!fs.existsSync(file)) return new Map();
  const listed = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string[]>;
  return new Map(
    Object.entries(listed).map(([urlPath, hrefs]) => [
      urlPath,
      hrefs
        .filter((href) => /^\/assets\/[\w.-]+\.js$/.test(href))
        .map(
          (href) =>
            `<link rel="modulepreload" crossorigin href="${href}" nonce="${CSP_NONCE_PLACEHOLDER}">`,
        )
        .join(''),
    ]),
  );
}

/** The built single-page app: its files, and index.html for every other path (deep links). */
export function serveWebApp(app: express.Express, dir: string) {
  // Source maps would hand out the app's whole source: a build leaves them beside the files
  // (vite's 'hidden' maps), they are never served. Checked on the path as the static server
  // decodes it, in any case, so that neither /x.js.ma%70 nor /x.js.MAP slips through.
  app.use((req, _res, next) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(req.path);
    } catch {
      return next(); // The static server answers a malformed path with 400.
    }
    next(decoded.toLowerCase().endsWith('.map') ? NotFound(apiMessages.notFound) : undefined);
  });
  // Read once: a new build comes with a restart.
  const template = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
  const preloads = landingPagePreloads(dir);
  const sendIndex: RequestHandler = (req, res) => {
    res.set('Cache-Control', 'no-cache');
    const page = template.replace('</head>', `${preloads.get(req.path) ?? ''}</head>`);
    res.type('html').send(page.replaceAll(CSP_NONCE_PLACEHOLDER, res.locals.cspNonce));
  };
  // Never the file as built: its placeholder is no nonce.
  app.get('/index.html', sendIndex);
  app.use(precompressedFiles(dir));
  // Hashed names: a changed file is a new name, so a browser may keep each one for a year.
  app.use(
    '/assets',
    express.static(path.join(dir, 'assets'), {
      immutable: true,
      maxAge: '1y',
      fallthrough: false,
      setHeaders: setEncodingHeaders,
    }),
  );
  // Files of fixed names (icons, the manifest): kept an hour, then checked again.
  app.use(express.static(dir, { index: false, maxAge: '1h', setHeaders: setEncodingHeaders }));
  app.get('/{*path}', sendIndex);
}
