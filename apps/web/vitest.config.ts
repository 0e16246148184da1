import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * Two suites: `web-unit` renders components in jsdom; `web-e2e` drives the built app in a real
 * Chromium against the real API process (see e2e/support). The e2e files run one at a time: each
 * starts its own server and browser, and a slow CI machine must not time them out.
 */
export default defineConfig({
  plugins: [react()],
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    reporters: ['default', 'json'],
    outputFile: { json: '../../.test-results/web.json' },
    projects: [
      {
        extends: true as const,
        test: {
          name: 'web-unit',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['src/test/setup.ts'],
          // One jsdom and one module graph per worker instead of per file: about half the time.
          // The setup puts back after every test what a test leaves behind in the shared window
          // and modules (src/test/global-state.ts).
          isolate: false,
        },
      },
      {
        extends: true as const,
        test: {
          name: 'web-e2e',
          environment: 'node',
          include: ['e2e/**/*.test.ts'],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // expect.poll waits as long as expectVisible does (e2e/support/ui.ts): its 1 s default
          // fails a check that a busy CI machine answers in a little more.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
