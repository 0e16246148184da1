import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['source'] },
  test: {
    name: 'shared',
    include: ['test/**/*.test.ts'],
    reporters: ['default', 'json'],
    outputFile: { json: '../../.test-results/shared.json' },
  },
});
