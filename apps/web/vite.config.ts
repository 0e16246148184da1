import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  // 'source' reads packages/shared from its TypeScript; the defaults keep dependencies on their browser builds.
  resolve: { conditions: ['source', ...defaultClientConditions] },
  build: { sourcemap: true },
  server: {
    // `pnpm dev`: the API runs on 8000; the dev server forwards /api to it.
    proxy: { '/api': 'http://localhost:8000' },
  },
});
