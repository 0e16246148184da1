import pg from 'pg';
import { defineConfig } from 'vitest/config';

/**
 * The API suite runs twice: on SQLite always, and on PostgreSQL whenever a server answers at
 * TEST_DATABASE_URL. `REQUIRE_POSTGRES=1` (CI) turns a missing server into a failure.
 */
const postgresUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const withPostgres = await postgresReachable();
if (!withPostgres) {
  const banner = `PostgreSQL is not reachable at ${postgresUrl.replace(/:[^:@/]+@/, ':***@')}`;
  if (process.env.REQUIRE_POSTGRES === '1') {
    throw new Error(`${banner}, and REQUIRE_POSTGRES=1: refusing to run only half the suite.`);
  }
  console.warn(
    `\n${'!'.repeat(78)}\n!! ${banner}.\n!! The PostgreSQL pass of the API suite is SKIPPED: only SQLite is tested.\n!! Start PostgreSQL or set TEST_DATABASE_URL to run it.\n${'!'.repeat(78)}\n`,
  );
}
const engines = withPostgres ? ['sqlite', 'postgres'] : ['sqlite'];

export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    reporters: ['default', 'json'],
    outputFile: { json: '../../.test-results/api.json' },
    setupFiles: ['test/setup/no-console-errors.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Test files share a worker's module cache instead of importing the app afresh each: every
    // file builds its own app, database and servers (test/helpers/test-app.ts), so nothing they
    // assert lives in a module. Importing per file was most of the suite's CPU (8 files: 58 s
    // isolated, 23 s not); the whole suite passes both ways.
    isolate: false,
    projects: [
      {
        extends: true as const,
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'] },
      },
      ...engines.map((engine) => ({
        extends: true as const,
        test: {
          name: `api-${engine}`,
          // Both passes load every file. What applies to one engine only (e.g.
          // `*.postgres.test.ts`: several API processes on one database) is declared with onlyOn
          // (test/helpers/only-on.ts), so the other pass reports it as not applicable.
          include: ['test/api/**/*.test.ts', 'test/cli/**/*.test.ts'],
          env: { TEST_ENGINE: engine, TEST_DATABASE_URL: postgresUrl },
        },
      })),
    ],
  },
});
