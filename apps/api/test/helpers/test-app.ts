import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { pino, type Logger } from 'pino';
import request from 'supertest';
import type { Express } from 'express';
import { createApp } from '../../src/app.js';
import type { AppConfig } from '../../src/config.js';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../src/db/database.js';
import type { Database } from '../../src/db/tables.js';

export const ENGINE = (process.env.TEST_ENGINE ?? 'sqlite') as 'sqlite' | 'postgres';
export const INVITE_TOKEN = '424242';
export const POSTGRES_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestContext {
  app: Express;
  db: Kysely<Database>;
  engine: 'sqlite' | 'postgres';
  api: ReturnType<typeof request>;
  close(): Promise<void>;
}

export const testConfig: AppConfig = {
  jwtSecret: 'test-secret-that-is-long-enough-for-hs256-0123456789',
  jwtExpiresIn: '1h',
  adminInviteToken: INVITE_TOKEN,
  corsOrigins: [],
  // Tests sign in far more often than a person; the limit has its own test.
  authRateLimit: 100_000,
  bcryptCost: 4,
  trustProxy: false,
};

/**
 * An app on a fresh database of the engine under test: an in-memory SQLite database, or a new
 * schema on the PostgreSQL server, dropped again by close().
 */
export async function createTestContext(
  overrides: Partial<AppConfig> = {},
  options: { logger?: Logger } = {},
): Promise<TestContext> {
  let handle: DatabaseHandle;
  let dropSchema = async () => {};
  if (ENGINE === 'postgres') {
    const schema = `test_${randomUUID().replaceAll('-', '')}`;
    await adminQuery(`create schema ${schema}`);
    handle = openDatabase({ engine: 'postgres', url: POSTGRES_URL, schema, poolSize: 4 });
    dropSchema = () => adminQuery(`drop schema ${schema} cascade`);
  } else {
    handle = openDatabase({ engine: 'sqlite', file: ':memory:' });
  }
  await migrateToLatest(handle);
  const app = createApp({
    db: handle.db,
    config: { ...testConfig, ...overrides },
    logger: options.logger ?? pino({ level: 'silent' }),
  });
  return {
    app,
    db: handle.db,
    engine: ENGINE,
    api: request(app),
    close: async () => {
      await handle.close();
      await dropSchema();
    },
  };
}

/** One statement on the test server's own database: creating and dropping schemas, databases. */
export async function adminQuery(text: string) {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
