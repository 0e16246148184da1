import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig, type Plugin } from 'vite';

const EARLY_REQUESTS = 'src/boot/early-requests.ts';

/**
 * src/boot/early-requests.ts as an entry of its own, loaded `async` from the page's head: it runs
 * as soon as it arrives, before the app's main chunk (a second module script in index.html would
 * be merged into that chunk). Built, it is a hashed asset like the rest; in `pnpm dev`, the source.
 */
function earlyRequestsEntry(): Plugin {
  return {
    name: 'early-requests-entry',
    config: () => ({
      build: {
        rollupOptions: { input: { index: 'index.html', 'early-requests': EARLY_REQUESTS } },
      },
    }),
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        const built = Object.values(bundle ?? {}).find(
          (output) => output.type === 'chunk' && output.isEntry && output.name === 'early-requests',
        );
        if (bundle && !built) throw new Error(`${EARLY_REQUESTS} was not built`);
        const src = built ? `/${built.fileName}` : `/${EARLY_REQUESTS}`;
        // First in the head's scripts, so that the browser asks for it before the main chunk.
        const tag = `<script type="module" async src="${src}"></script>\n    `;
        return html.replace(/<script type="module"/, (first) => tag + first);
      },
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), earlyRequestsEntry()],
  // 'source' reads packages/shared from its TypeScript; the defaults keep dependencies on their browser builds.
  resolve: { conditions: ['source', ...defaultClientConditions] },
  build: { sourcemap: true },
  server: {
    // `pnpm dev`: the API runs on 8000; the dev server forwards /api to it.
    proxy: { '/api': 'http://localhost:8000' },
  },
});
