import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  DEFAULT_MIGRATION_TABLE as MIGRATION_TABLE,
  Kysely,
  Migrator,
  PostgresAdapter,
  CompiledQuery,
  SqliteDialect,
  SqliteDriver,
  sql,
  type DatabaseConnection,
  type SqliteDatabase,
  type SqliteDialectConfig,
  type Migration,
} from 'kysely';
import pg from 'pg';
import type { Env } from '../config.js';
import { prepareSqliteFiles } from '../data-files.js';
import { SearchPathPostgresDialect } from './postgres-introspector.js';
import * as initial from './migrations/2026-11-22-001-initial.js';
import * as revokedTokens from './migrations/2026-11-23-001-revoked-tokens.js';
import * as listIndexes from './migrations/2026-11-23-002-list-indexes.js';
import * as taskCounts from './migrations/2026-11-23-003-task-counts.js';
import * as taskDueDays from './migrations/2026-11-24-002-task-due-days.js';
import * as assigneeOrder from './migrations/2026-11-24-003-assignee-order.js';
import * as safeLinks from './migrations/2026-11-25-002-safe-links.js';
import * as imageOwners from './migrations/2026-11-25-003-image-owners.js';
import * as taskCollaboration from './migrations/2026-11-26-101-task-collaboration.js';
import * as labels from './migrations/2026-11-26-201-labels.js';
import * as taskSearch from './migrations/2026-11-26-202-task-search.js';
import * as taskSortIndexes from './migrations/2026-11-26-203-task-sort-indexes.js';
import * as teamAdmin from './migrations/2026-11-26-301-team-admin.js';
import * as searchComments from './migrations/2026-11-26-401-search-comments.js';
import * as events from './migrations/2026-11-27-101-events.js';
import * as eventTickets from './migrations/2026-11-27-111-event-tickets.js';
import * as notifications from './migrations/2026-11-27-201-notifications.js';
import * as dataVersion from './migrations/2026-11-27-301-data-version.js';
import * as searchKeys from './migrations/2026-11-27-401-search-keys.js';
import * as searchKeyFilters from './migrations/2026-11-27-402-search-key-filters.js';
import * as dueFiltersIndex from './migrations/2026-11-27-403-due-filters-index.js';
import * as taskDocumentsStore from './migrations/2026-11-27-501-task-documents.js';
import * as searchCreationOrder from './migrations/2026-11-27-601-search-creation-order.js';
import * as createdFiltersIndex from './migrations/2026-11-27-602-created-filters-index.js';
import * as searchPriorityFacet from './migrations/2026-11-27-603-search-priority-facet.js';
import * as sortFiltersIndexes from './migrations/2026-11-27-604-sort-filters-indexes.js';
import * as searchTitleKey from './migrations/2026-11-27-605-search-title-key.js';
import * as searchKeySortIndexes from './migrations/2026-11-28-606-search-key-sort-indexes.js';
import * as searchKeysOneWrite from './migrations/2026-11-28-607-search-keys-one-write.js';
import * as taskSearchId from './migrations/2026-11-28-608-task-search-id.js';
import * as searchTextVersion from './migrations/2026-11-28-609-search-text-version.js';
import * as userLanguage from './migrations/2026-11-28-610-user-language.js';
import * as searchKeyPriorityDue from './migrations/2026-11-29-611-search-key-priority-due-index.js';
import * as postgresTaskDocuments from './migrations/2026-11-29-612-postgres-task-documents.js';
import * as searchRowWrittenOnce from './migrations/2026-11-29-613-search-row-written-once.js';
import * as taskDocumentsKeptInPlace from './migrations/2026-11-29-614-task-documents-kept-in-place.js';
import * as eventsByIdOnly from './migrations/2026-11-29-615-events-by-id-only.js';
import type { Database } from './tables.js';

export type Engine = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  engine: Engine;
  /** Where the data lives, for the start-up log (never includes a password). */
  location: string;
  /** The PostgreSQL schema the tables live in, when not the default. */
  schema?: string;
  /** SQLite files that others could read, made owner-only on opening (for the start-up log). */
  tightenedFiles?: string[];
  close(): Promise<void>;
}

export type DatabaseOptions =
  | { engine: 'sqlite'; file: string }
  | { engine: 'postgres'; url: string; schema?: string; poolSize?: number };

/** Every migration, in order. Static imports keep the list identical in src and dist. */
export const migrations: Record<string, Migration> = {
  '2026-11-22-001-initial': initial,
  '2026-11-23-001-revoked-tokens': revokedTokens,
  '2026-11-23-002-list-indexes': listIndexes,
  '2026-11-23-003-task-counts': taskCounts,
  '2026-11-24-002-task-due-days': taskDueDays,
  '2026-11-24-003-assignee-order': assigneeOrder,
  '2026-11-25-002-safe-links': safeLinks,
  '2026-11-25-003-image-owners': imageOwners,
  '2026-11-26-101-task-collaboration': taskCollaboration,
  '2026-11-26-201-labels': labels,
  '2026-11-26-202-task-search': taskSearch,
  '2026-11-26-203-task-sort-indexes': taskSortIndexes,
  '2026-11-26-301-team-admin': teamAdmin,
  '2026-11-26-401-search-comments': searchComments,
  '2026-11-27-101-events': events,
  '2026-11-27-111-event-tickets': eventTickets,
  '2026-11-27-201-notifications': notifications,
  '2026-11-27-301-data-version': dataVersion,
  '2026-11-27-401-search-keys': searchKeys,
  '2026-11-27-402-search-key-filters': searchKeyFilters,
  '2026-11-27-403-due-filters-index': dueFiltersIndex,
  '2026-11-27-501-task-documents': taskDocumentsStore,
  '2026-11-27-601-search-creation-order': searchCreationOrder,
  '2026-11-27-602-created-filters-index': createdFiltersIndex,
  '2026-11-27-603-search-priority-facet': searchPriorityFacet,
  '2026-11-27-604-sort-filters-indexes': sortFiltersIndexes,
  '2026-11-27-605-search-title-key': searchTitleKey,
  '2026-11-28-606-search-key-sort-indexes': searchKeySortIndexes,
  '2026-11-28-607-search-keys-one-write': searchKeysOneWrite,
  '2026-11-28-608-task-search-id': taskSearchId,
  '2026-11-28-609-search-text-version': searchTextVersion,
  '2026-11-28-610-user-language': userLanguage,
  '2026-11-29-611-search-key-priority-due-index': searchKeyPriorityDue,
  '2026-11-29-612-postgres-task-documents': postgresTaskDocuments,
  '2026-11-29-613-search-row-written-once': searchRowWrittenOnce,
  '2026-11-29-614-task-documents-kept-in-place': taskDocumentsKeptInPlace,
  '2026-11-29-615-events-by-id-only': eventsByIdOnly,
};

// PostgreSQL returns bigint (count(*)) as text; our counts fit easily in a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/**
 * Transactions take SQLite's write lock when they begin (BEGIN IMMEDIATE), not at their first
 * write. With several processes on one file (WEB_CONCURRENCY), a deferred transaction that read
 * first and then writes fails at once with SQLITE_BUSY when another process wrote in between:
 * busy_timeout cannot help it. Taken up front, the lock is simply waited for.
 */
class ImmediateTransactionDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateTransactionSqliteDialect extends SqliteDialect {
  constructor(private readonly sqliteConfig: SqliteDialectConfig) {
    super(sqliteConfig);
  }

  override createDriver() {
    return new ImmediateTransactionDriver(this.sqliteConfig);
  }
}

/**
 * Kysely's SQLite driver prepares every statement it runs. The app sends the same few dozen
 * statements over and over (the same SQL text with other parameters), and preparing one costs
 * more than running it on a small read: keep the most recently used ones, ready to run. SQLite
 * re-prepares a kept statement by itself if a migration changed the schema under it. Safe to
 * share: the driver runs one statement at a time on its single connection.
 */
function withStatementCache(sqlite: SQLite.Database, size = 200): SqliteDatabase {
  const kept = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text) {
      let statement = kept.get(text);
      if (statement) {
        // Map keeps insertion order: re-inserting makes it the most recently used.
        kept.delete(text);
      } else {
        statement = sqlite.prepare(text);
        if (kept.size >= size) kept.delete(kept.keys().next().value!);
      }
      kept.set(text, statement);
      return statement;
    },
  };
}

export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.engine === 'sqlite') {
    // It holds password hashes: owner-only, like the folder it is created in.
    const tightenedFiles = options.file === ':memory:' ? [] : prepareSqliteFiles(options.file);
    const sqlite = new SQLite(options.file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('synchronous = NORMAL');
    // The temporary b-trees some statements need (a status change's triggers, for one) stay in
    // memory: kept on disk, each cost a temporary file created, unlinked and closed, about 90 µs
    // of a checklist tick that moved the status (docs/performance.md).
    sqlite.pragma('temp_store = MEMORY');
    const db = new Kysely<Database>({
      dialect: new ImmediateTransactionSqliteDialect({ database: withStatementCache(sqlite) }),
    });
    return {
      db,
      engine: 'sqlite',
      location: options.file,
      tightenedFiles,
      close: () => db.destroy(),
    };
  }

  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    // A stopped server refuses at once, so those requests are answered 503 straight away. This
    // bound is for a server that vanished without a word; it also covers the wait for a free
    // pooled connection, so it must outlast a busy pool's queue under load (3 s did not: a
    // burst of 100 clients got 503s from a healthy database).
    connectionTimeoutMillis: 10_000,
    // The server cancels a runaway statement; the client gives up on one that never gets an
    // answer (a server that vanished without closing the connection).
    statement_timeout: 30_000,
    query_timeout: 35_000,
    // Notices a peer that is gone without a goodbye (cut network, powered-off host).
    keepAlive: true,
    // A schema per test run keeps parallel suites apart on one server.
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  // An idle connection dropped by the server must not crash the process; the pool replaces it.
  pool.on('error', (error) => {
    console.error(`PostgreSQL connection error: ${error.message}`);
  });
  // The pool listens only to idle connections. One in use when the server goes away fails its
  // query (the request answers 503), and would then crash the process with an unheard 'error'.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  const db = new Kysely<Database>({ dialect: new SearchPathPostgresDialect({ pool }) });
  return {
    db,
    engine: 'postgres',
    location: redactUrl(options.url) + (options.schema ? ` (schema ${options.schema})` : ''),
    schema: options.schema,
    close: () => db.destroy(),
  };
}

/** The SQLite file for this configuration, as an absolute path. */
export function sqliteFileOf(env: Pick<Env, 'DATA_DIR'>): string {
  return path.resolve(env.DATA_DIR, 'taskmanager.db');
}

/** The database this configuration names: PostgreSQL at DATABASE_URL, else SQLite in DATA_DIR. */
export function openConfiguredDatabase(
  env: Pick<Env, 'DATABASE_URL' | 'DATA_DIR'>,
): DatabaseHandle {
  return env.DATABASE_URL
    ? openDatabase({ engine: 'postgres', url: env.DATABASE_URL })
    : openDatabase({ engine: 'sqlite', file: sqliteFileOf(env) });
}

/**
 * Brings the database up to this version's schema and returns the migrations it applied. A
 * database that records a migration this code does not know was written by a newer version:
 * running on it could corrupt data the newer code relies on, so start-up stops instead.
 */
export async function migrateToLatest(
  handle: Pick<DatabaseHandle, 'db' | 'schema'>,
): Promise<string[]> {
  const unknown = unknownMigrations(await executedMigrations(handle));
  if (unknown.length > 0) {
    throw new Error(
      `This database was written by a newer version of Task Manager (unknown migration ` +
        `${unknown.join(', ')}). Upgrade the app or restore a backup.`,
    );
  }
  const migrator = new Migrator({
    db: handle.db,
    provider: { getMigrations: async () => migrations },
    // Kysely looks for its bookkeeping tables in every schema unless told which one.
    ...(handle.schema ? { migrationTableSchema: handle.schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? '');
    throw new Error(
      `Database migration ${failed?.migrationName ?? ''} failed: ${reason}`.replace(/\s+/g, ' '),
    );
  }
  return (results ?? []).map((result) => result.migrationName);
}

/** Of the migrations a database records, those this version does not know: a newer one ran them. */
export function unknownMigrations(executed: readonly string[]): string[] {
  return executed.filter((name) => !Object.hasOwn(migrations, name));
}

/** The names Kysely's bookkeeping table records; none on a new database. */
async function executedMigrations(handle: Pick<DatabaseHandle, 'db' | 'schema'>) {
  const table = handle.schema ? `${handle.schema}.${MIGRATION_TABLE}` : MIGRATION_TABLE;
  // Ask the catalogue rather than read the error of a failed select: its text differs by engine.
  const tableExists = isPostgres(handle.db)
    ? sql`select 1 where to_regclass(${table}) is not null`
    : sql`select 1 from sqlite_master where type = 'table' and name = ${table}`;
  if ((await tableExists.execute(handle.db)).rows.length === 0) return [];
  const { rows } = await sql<{ name: string }>`select name from ${sql.table(table)}`.execute(
    handle.db,
  );
  return rows.map((row) => row.name);
}

export async function ping(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}

function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres';
  }
}

/** True when `db` runs on PostgreSQL, false on SQLite. */
export function isPostgres(db: Kysely<Database>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * True on PostgreSQL. Row locks (`for update`) exist only there; SQLite serialises writers
 * with its database lock, so the same code is safe without them.
 */
export const supportsRowLocks = isPostgres;
