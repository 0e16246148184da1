import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely, type KyselyPlugin } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { compiledOnce } from '../../src/db/compiled-once.js';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js';

/** The test's own table, created below. */
interface NotesDb {
  notes: { id: number; owner: string; text: string };
}

/** A query of fixed shape is built and compiled once, then run with each call's arguments. */
describe('compiledOnce', () => {
  let handle: DatabaseHandle;
  let dir: string;
  afterEach(async () => {
    await handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function open() {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'compiled-once-'));
    handle = openDatabase({ engine: 'sqlite', file: path.join(dir, 'once.db') });
    await sql`create table notes (id integer primary key, owner text, text text)`.execute(
      handle.db,
    );
    await sql`insert into notes (owner, text) values ('ana', 'a1'), ('ana', 'a2'), ('bo', 'b1')`.execute(
      handle.db,
    );
    return handle.db as unknown as Kysely<NotesDb>;
  }

  it('builds once and runs each call with its own arguments, constants kept', async () => {
    const db = await open();
    let builds = 0;
    const notesOf = compiledOnce((database: Kysely<NotesDb>, owner: string, after: number) => {
      builds += 1;
      return database
        .selectFrom('notes')
        .select(['id', 'text'])
        .where('owner', '=', owner)
        .where('id', '>', after)
        .where('text', '!=', 'never')
        .orderBy('id');
    });
    expect(await notesOf(db, 'ana', 0)).toEqual([
      { id: 1, text: 'a1' },
      { id: 2, text: 'a2' },
    ]);
    expect(await notesOf(db, 'ana', 1)).toEqual([{ id: 2, text: 'a2' }]);
    expect(await notesOf(db, 'bo', 0)).toEqual([{ id: 3, text: 'b1' }]);
    expect(await notesOf(db, 'cy', 0)).toEqual([]);
    expect(builds).toBe(1);
  });

  it('runs inside a transaction, seeing what it wrote', async () => {
    const db = await open();
    const count = compiledOnce((database: Kysely<NotesDb>, owner: string) =>
      database
        .selectFrom('notes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('owner', '=', owner),
    );
    await db.transaction().execute(async (trx) => {
      await sql`insert into notes (owner, text) values ('cy', 'c1')`.execute(trx);
      expect(await count(trx, 'cy')).toEqual([{ n: 1 }]);
    });
  });

  it('builds each call through the plugins of a database that has some', async () => {
    const db = await open();
    const seen: string[] = [];
    const watching: KyselyPlugin = {
      transformQuery: (args) => {
        seen.push(args.node.kind);
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const texts = compiledOnce((database: Kysely<NotesDb>, owner: string) =>
      database.selectFrom('notes').select('text').where('owner', '=', owner).orderBy('id'),
    );
    expect(await texts(db, 'bo')).toEqual([{ text: 'b1' }]);
    expect(await texts(db.withPlugin(watching), 'ana')).toEqual([{ text: 'a1' }, { text: 'a2' }]);
    expect(await texts(db.withPlugin(watching), 'bo')).toEqual([{ text: 'b1' }]);
    expect(seen).toEqual(['SelectQueryNode', 'SelectQueryNode']);
  });

  it('refuses a query that leaves an argument out', async () => {
    const db = await open();
    const careless = compiledOnce((database: Kysely<NotesDb>, owner: string, _unused: string) =>
      database.selectFrom('notes').select('id').where('owner', '=', owner),
    );
    await expect(careless(db, 'ana', 'x')).rejects.toThrow(/used 1 of its 2 arguments/);
  });
});
