import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

export default defineConfig({
  plugins: [react(), tailwindcss()],
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
