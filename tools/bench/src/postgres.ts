import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { apiDir } from './paths.js';

/** The PostgreSQL server the benchmarks create their scratch databases on. */
export const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

interface PgClient {
  connect(): Promise<void>;
  query(text: string): Promise<unknown>;
  end(): Promise<void>;
}

/**
 * The API's own PostgreSQL driver (pg), loaded from apps/api: this package stays free of a
 * second copy, and the benchmarks talk to the server exactly as the API does.
 */
const pg = createRequire(path.join(apiDir, 'package.json'))('pg') as {
  Client: new (options: { connectionString: string; connectionTimeoutMillis?: number }) => PgClient;
};

async function adminQuery(serverUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * A new, empty database on the server at `serverUrl`; `drop()` removes it again, even while a
 * killed server's connections are still open.
 */
export async function createScratchDatabase(
  serverUrl = DEFAULT_POSTGRES_URL,
): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `tm_bench_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  await adminQuery(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () => adminQuery(serverUrl, `drop database if exists ${name} with (force)`),
  };
}
