import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { apiDir, resultsDir } from './paths.js';
import { freePort, startBuiltServer } from './server.js';

/**
 * Seeded databases for the benchmark, one per size, kept in tools/bench/results (SQLite) or on
 * the PostgreSQL server (a database named after the size), and reused while their marker file
 * says they were seeded completely: seeding 100,000 tasks takes a while, measuring does not.
 */

export type BenchEngine = 'sqlite' | 'postgres';

export interface BenchSize {
  tasks: number;
  users: number;
}

/** What the server needs to open it: DATA_DIR for SQLite, DATABASE_URL for PostgreSQL. */
export type DatabaseEnv = { DATA_DIR: string } | { DATABASE_URL: string; DATA_DIR: string };

/** The seed every benchmark database is made with, so that two machines measure the same data. */
const SEED = 1;

interface PgClient {
  connect(): Promise<void>;
  query(text: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
  end(): Promise<void>;
}

/** The API's own driver, so this package holds no second copy of it. */
const pg = createRequire(path.join(apiDir, 'package.json'))('pg') as {
  Client: new (options: { connectionString: string; connectionTimeoutMillis?: number }) => PgClient;
};

async function withPg<T>(url: string, use: (client: PgClient) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

function sizeKey(engine: BenchEngine, size: BenchSize): string {
  return `${engine}-t${size.tasks}-u${size.users}`;
}

/** Runs `pnpm seed:load` (its source, without pnpm's start-up) against `env`. */
function seedLoad(size: BenchSize, env: DatabaseEnv): Promise<string> {
  const args = [
    '--tasks',
    String(size.tasks),
    '--users',
    String(size.users),
    '--seed',
    String(SEED),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', 'src/cli/seed-load.ts', ...args],
      { cwd: apiDir, env: { PATH: process.env.PATH ?? '', ...env } },
    );
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(output.trim()) : reject(new Error(`seed:load failed:\n${output}`)),
    );
  });
}

/**
 * The database for `size`, seeded if needed. `postgresUrl` (DATABASE_URL) names the server; the
 * benchmark uses a database of its own on it and never touches the one in the URL.
 */
export async function prepareDatabase(
  engine: BenchEngine,
  size: BenchSize,
  postgresUrl: string | undefined,
  log: (line: string) => void,
): Promise<DatabaseEnv> {
  const key = sizeKey(engine, size);
  const marker = path.join(resultsDir, `${key}.seeded.json`);
  // SQLite's folder also serves as the server's DATA_DIR (JWT and invite files live there).
  const dataDir = path.join(resultsDir, key);
  let env: DatabaseEnv;
  let exists: boolean;
  if (engine === 'sqlite') {
    env = { DATA_DIR: dataDir };
    exists = fs.existsSync(path.join(dataDir, 'taskmanager.db'));
  } else {
    const server = new URL(postgresUrl!);
    const name = `bench_${key.replace(/^postgres-/, '').replaceAll('-', '_')}`;
    const url = new URL(server);
    url.pathname = `/${name}`;
    env = { DATABASE_URL: url.toString(), DATA_DIR: dataDir };
    exists = await withPg(server.toString(), async (client) => {
      const found = await client.query('select 1 from pg_database where datname = $1', [name]);
      if (found.rows.length > 0 && fs.existsSync(marker)) return true;
      await client.query(`drop database if exists ${name} with (force)`);
      await client.query(`create database ${name}`);
      return false;
    });
  }
  if (exists && fs.existsSync(marker)) {
    log(`Reusing the ${size.tasks.toLocaleString('en')}-task ${engine} database (${key}).`);
    await remindersCaughtUp(env);
    return analyzed(env, log);
  }
  // Half-seeded or never seeded: start from nothing.
  fs.rmSync(marker, { force: true });
  if (engine === 'sqlite') fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  log(`Seeding ${size.tasks.toLocaleString('en')} tasks and ${size.users} members (${key})…`);
  const summary = await seedLoad(size, env);
  log(`  ${summary.split('\n')[0]}`);
  fs.writeFileSync(marker, JSON.stringify({ ...size, seed: SEED, summary }, null, 2));
  await remindersCaughtUp(env);
  return analyzed(env, log);
}

/** The due reminders' mark (apps/api/src/scheduler/job-marks.ts, due-reminders.ts). */
const REMINDERS_MARK = 'scheduler.due-reminders';

/**
 * Sets the due reminders' mark, if missing, as a running instance has it after its first run.
 * Without it the first server started on a freshly seeded database spends minutes writing one
 * reminder per overdue task and assignee (about 450,000 at 1,000,000 tasks), and every row
 * measured meanwhile pays for that backlog instead of its own work. With it, each run reads only
 * the tasks written or come due since, as in a live instance.
 */
async function remindersCaughtUp(env: DatabaseEnv): Promise<void> {
  const now = new Date().toISOString();
  const insert = `insert into app_settings (key, value) values ($1, $2) on conflict (key) do nothing`;
  if ('DATABASE_URL' in env) {
    await withPg(env.DATABASE_URL, (client) => client.query(insert, [REMINDERS_MARK, now]));
    return;
  }
  const Sqlite = createRequire(path.join(apiDir, 'package.json'))('better-sqlite3') as new (
    file: string,
  ) => { prepare(sql: string): { run(...values: unknown[]): unknown }; close(): void };
  const db = new Sqlite(path.join(env.DATA_DIR, 'taskmanager.db'));
  try {
    db.prepare(insert.replace('$1', '?').replace('$2', '?')).run(REMINDERS_MARK, now);
  } finally {
    db.close();
  }
}

/**
 * PostgreSQL: VACUUM ANALYZE before measuring, as autovacuum does on a live server after a bulk
 * load (this machine's server runs without it): the planner gets its statistics and the
 * visibility map lets index-only scans skip the table. Without it a freshly seeded database is
 * measured with plans made blind. SQLite keeps no statistics (the app never runs ANALYZE).
 */
async function analyzed(env: DatabaseEnv, log: (line: string) => void): Promise<DatabaseEnv> {
  if (!('DATABASE_URL' in env)) return env;
  const started = Date.now();
  await withPg(env.DATABASE_URL, (client) => client.query('vacuum analyze'));
  log(`  VACUUM ANALYZE in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  return env;
}

/**
 * The built API on a prepared database, as the benchmarks run it: production mode, quiet logs,
 * and `WEB_CONCURRENCY` passed through, so `WEB_CONCURRENCY=2 pnpm bench` measures both cores.
 * `jwtSecret`: the floor server (floor-server.ts) checks the same tokens.
 */
export async function startBenchApi(
  database: DatabaseEnv,
  jwtSecret = randomBytes(32).toString('hex'),
) {
  return startBuiltServer({
    ...database,
    // At LOG_LEVEL=warn it does not print the port it got: give it one.
    PORT: String(await freePort()),
    NODE_ENV: 'production',
    JWT_SECRET: jwtSecret,
    // Sign-in is measured at full speed: the per-IP limit would answer 429 after a few requests.
    AUTH_RATE_LIMIT: '100000',
    LOG_LEVEL: 'warn',
    WEB_CONCURRENCY: process.env.WEB_CONCURRENCY ?? '1',
  });
}
