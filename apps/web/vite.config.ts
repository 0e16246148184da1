import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  resolve: { conditions: ['source'] },
  server: {
    // `pnpm dev`: the API runs on 8000; the dev server forwards /api to it.
    proxy: { '/api': 'http://localhost:8000' },
  },
});
