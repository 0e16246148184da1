import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig, type Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Text files worth compressing; images such as PNG are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|webmanifest|txt|xml)$/;
/** Below this a file fits in one TCP segment either way: a copy would save nothing. */
const MIN_BYTES = 1024;

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(file) : [file];
  });
}

/**
 * Writes `file.br` (brotli, best quality) and `file.gz` (gzip -9) beside every text file of the
 * build, once, so the server sends them with their Content-Encoding instead of compressing on
 * each request (apps/api/src/http/web-app.ts). A copy that is not at least 10 % smaller is not
 * kept. index.html is not among them: the server puts each answer's nonce in it.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'task-manager:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle(error?: Error) {
      if (error) return;
      const files = filesUnder(outDir).filter((file) => COMPRESSIBLE.test(file));
      await Promise.all(
        files.map(async (file) => {
          const source = await fs.promises.readFile(file);
          if (source.length < MIN_BYTES) return;
          const copies = await Promise.all([
            brotli(source, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length,
              },
            }).then((bytes) => ({ suffix: '.br', bytes })),
            gzip(source, { level: 9 }).then((bytes) => ({ suffix: '.gz', bytes })),
          ]);
          for (const { suffix, bytes } of copies) {
            if (bytes.length <= source.length * 0.9)
              await fs.promises.writeFile(file + suffix, bytes);
          }
        }),
      );
    },
  };
}

/**
 * The pages a first visit lands on (a bookmark, the app on a phone's home screen, the redirect
 * after sign-in), by URL path, and the modules each shows besides the main chunk.
 */
const LANDING_PAGES: Record<string, string[]> = {
  '/admin/dashboard': [
    'src/app/layouts/dashboard-layout.tsx',
    'src/features/dashboard/pages/admin-dashboard-page.tsx',
  ],
  '/user/dashboard': [
    'src/app/layouts/dashboard-layout.tsx',
    'src/features/dashboard/pages/user-dashboard-page.tsx',
  ],
  '/login': ['src/features/auth/pages/login-page.tsx'],
};
/** Written beside the build (a dot folder: never served), read by apps/api/src/http/web-app.ts. */
const ROUTE_PRELOADS_FILE = '.vite/route-preloads.json';

/**
 * Lists, for each landing page, the chunks it needs that index.html does not already load, so
 * the server can name them in index.html (<link rel="modulepreload">): on a slow link they then
 * download alongside the main chunk instead of after it has run.
 */
function landingPagePreloads(): Plugin {
  let root = '';
  return {
    name: 'task-manager:landing-page-preloads',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((file) => file.type === 'chunk');
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      // What index.html loads already: the entry and everything it imports statically.
      const loaded = new Set<string>();
      const load = (fileName: string) => {
        if (loaded.has(fileName)) return;
        loaded.add(fileName);
        byFile.get(fileName)?.imports.forEach(load);
      };
      chunks.filter((chunk) => chunk.isEntry).forEach((chunk) => load(chunk.fileName));
      const preloads: Record<string, string[]> = {};
      for (const [urlPath, modules] of Object.entries(LANDING_PAGES)) {
        const files = new Set<string>();
        const visit = (fileName: string) => {
          if (files.has(fileName) || loaded.has(fileName)) return;
          files.add(fileName);
          byFile.get(fileName)?.imports.forEach(visit);
        };
        for (const module of modules) {
          const chunk = chunks.find(
            (candidate) =>
              candidate.facadeModuleId &&
              path.relative(root, candidate.facadeModuleId).split(path.sep).join('/') === module,
          );
          if (!chunk) this.error(`${module} (a landing page's module) is not a chunk of its own`);
          visit(chunk.fileName);
        }
        preloads[urlPath] = [...files].map((file) => `/${file}`);
      }
      this.emitFile({
        type: 'asset',
        fileName: ROUTE_PRELOADS_FILE,
        source: `${JSON.stringify(preloads, null, 2)}\n`,
      });
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), precompress(), landingPagePreloads()],
  // 'source' reads packages/shared from its TypeScript; the defaults keep dependencies on their browser builds.
  resolve: { conditions: ['source', ...defaultClientConditions] },
  // 'hidden': maps are written for whoever debugs a build (and the first-load test reads them),
  // but no file points to them and the server never serves *.map: the source stays private.
  build: { sourcemap: 'hidden' },
  // Every <script>, <link> and <style> vite writes gets nonce="…", and a <meta property="csp-nonce">
  // is added: the server puts each page's own nonce in place of this text
  // (apps/api/src/http/web-app.ts).
  html: { cspNonce: 'CSP_NONCE_PLACEHOLDER' },
  server: {
    // `pnpm dev`: the API runs on 8000; the dev server forwards /api to it.
    proxy: { '/api': 'http://localhost:8000' },
  },
});
