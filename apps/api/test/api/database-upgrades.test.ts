import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import {
  migrateToLatest,
  migrations,
  openDatabase,
  type DatabaseHandle,
} from '../../src/db/database.js';
import { createPostgresDatabase, openEmptyDatabase } from '../helpers/databases.js';
import { startServer, stopAfterEachTest, tempDir } from '../helpers/server-process.js';
import { ENGINE } from '../helpers/test-app.js';

const FUTURE = '2099-01-01-001-from-a-newer-version';
const REFUSAL =
  `This database was written by a newer version of Task Manager (unknown migration ${FUTURE}). ` +
  'Upgrade the app or restore a backup.';

const { running, cleanups } = stopAfterEachTest();

/** Kysely's bookkeeping table, in the handle's schema when it has one. */
const migrationTable = (handle: Pick<DatabaseHandle, 'schema'>) =>
  sql.table(handle.schema ? `${handle.schema}.kysely_migration` : 'kysely_migration');

/** What a newer version of the app leaves behind: a migration this code has never seen. */
async function recordFutureMigration(handle: DatabaseHandle) {
  await sql`insert into ${migrationTable(handle)} (name, timestamp)
    values (${FUTURE}, ${new Date().toISOString()})`.execute(handle.db);
}

async function recordedMigrations(handle: DatabaseHandle) {
  const { rows } = await sql<{
    name: string;
  }>`select name from ${migrationTable(handle)} order by name`.execute(handle.db);
  return rows.map((row) => row.name);
}

describe(`database upgrades (${ENGINE})`, { timeout: 60_000 }, () => {
  it('migrates a new database to the latest schema; a second run has nothing to do', async () => {
    const { handle, drop } = await openEmptyDatabase(tempDir());
    cleanups.push(drop);
    expect(await migrateToLatest(handle)).toEqual(Object.keys(migrations));
    expect(await recordedMigrations(handle)).toEqual(Object.keys(migrations));
    expect(await handle.db.selectFrom('users').select('id').execute()).toEqual([]);
    expect(await migrateToLatest(handle)).toEqual([]);
  });

  it('refuses a database written by a newer version, and leaves it as it was', async () => {
    const { handle, drop } = await openEmptyDatabase(tempDir());
    cleanups.push(drop);
    await migrateToLatest(handle);
    await recordFutureMigration(handle);
    const before = await recordedMigrations(handle);

    await expect(migrateToLatest(handle)).rejects.toThrow(REFUSAL);
    expect(await recordedMigrations(handle)).toEqual(before);
    expect(before).toEqual([...Object.keys(migrations), FUTURE].sort());
  });

  it('the server process refuses to start on such a database, saying why', async () => {
    const dataDir = tempDir();
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      PORT: '0',
      ADMIN_INVITE_TOKEN: '112233',
    };
    // The database as a newer version left it, where the server will look for it.
    let handle: DatabaseHandle;
    if (ENGINE === 'postgres') {
      const database = await createPostgresDatabase();
      cleanups.push(database.drop);
      env.DATABASE_URL = database.url;
      handle = openDatabase({ engine: 'postgres', url: database.url, poolSize: 1 });
    } else {
      handle = (await openEmptyDatabase(dataDir)).handle;
    }
    await migrateToLatest(handle);
    await recordFutureMigration(handle);
    await handle.close();

    const server = startServer(env);
    running.push(server);
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain(REFUSAL);
    expect(server.output()).not.toContain('listening');
  });
});
