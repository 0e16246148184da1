import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import express, { type RequestHandler } from 'express';
import { apiMessages } from '@task-manager/shared';
import { NotFound } from '../errors.js';

/**
 * What vite writes where each page's nonce goes (apps/web/vite.config.ts, html.cspNonce): in the
 * nonce="…" of every <script>, <link> and <style> it emits, and in <meta property="csp-nonce">.
 */
export const CSP_NONCE_PLACEHOLDER = 'CSP_NONCE_PLACEHOLDER';

/** A fresh nonce for each answer (128 random bits), for the CSP header and the page alike. */
export const cspNonce: RequestHandler = (_req, res, next) => {
  res.locals.cspNonce = randomBytes(16).toString('base64');
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
  const sendIndex: RequestHandler = (_req, res) => {
    res.set('Cache-Control', 'no-cache');
    res.type('html').send(template.replaceAll(CSP_NONCE_PLACEHOLDER, res.locals.cspNonce));
  };
  // Never the file as built: its placeholder is no nonce.
  app.get('/index.html', sendIndex);
  app.use(
    '/assets',
    express.static(path.join(dir, 'assets'), { immutable: true, maxAge: '1y', fallthrough: false }),
  );
  app.use(express.static(dir, { index: false, maxAge: '1h' }));
  app.get('/{*path}', sendIndex);
}
