import { createRequire } from 'node:module';
import path from 'node:path';
import express, { Router, type RequestHandler } from 'express';
import { openApiDocument } from './document.js';

const SWAGGER_UI_DIR = path.dirname(
  createRequire(import.meta.url).resolve('swagger-ui-dist/absolute-path.js'),
);
/** The only files of swagger-ui-dist we serve (not its petstore index.html and initializer). */
const SWAGGER_UI_FILES = new Set([
  'swagger-ui.css',
  'index.css',
  'swagger-ui-bundle.js',
  'favicon-32x32.png',
  'favicon-16x16.png',
]);

/** Starts Swagger UI from a file of its own: the Content-Security-Policy allows no inline script. */
const INIT_SCRIPT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/api/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
`;

const DOCS_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Task Manager API</title>
    <link rel="stylesheet" href="/api/docs/swagger-ui.css" />
    <link rel="stylesheet" href="/api/docs/index.css" />
    <link rel="icon" type="image/png" href="/api/docs/favicon-32x32.png" sizes="32x32" />
    <link rel="icon" type="image/png" href="/api/docs/favicon-16x16.png" sizes="16x16" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/api/docs/swagger-ui-bundle.js"></script>
    <script src="/api/docs/init.js"></script>
  </body>
</html>
`;

/** Swagger UI's files and our start-up script, all from our own origin; anything else passes on. */
function docsAssets(): RequestHandler {
  const files = express.static(SWAGGER_UI_DIR, { index: false, maxAge: '1h' });
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path === '/init.js') {
      res.type('text/javascript').set('Cache-Control', 'no-cache').send(INIT_SCRIPT);
      return;
    }
    if (!SWAGGER_UI_FILES.has(req.path.slice(1))) return next();
    files(req, res, next);
  };
}

/** GET /openapi.json (the document) and GET /docs (an interactive reference), under /api. */
export function openApiRoutes(): Router {
  const body = JSON.stringify(openApiDocument());
  const router = Router();
  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').set('Cache-Control', 'no-cache').send(body);
  });
  router.get('/docs', (_req, res) => {
    res.type('text/html').set('Cache-Control', 'no-cache').send(DOCS_PAGE);
  });
  router.use('/docs', docsAssets());
  return router;
}
