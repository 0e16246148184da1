import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../db/database.js';
import type { Database } from '../db/tables.js';
import { sqliteSearchQuery } from './search.js';

/**
 * SQLite: a search's matches kept between requests, for as long as no task's searched text
 * changes (the counter of migration 2026-11-28-609, raised by the writes that can change which
 * tasks match or their titles; a checklist tick or a status change leaves it). A word set is
 * kept the second time it is asked for at the same text version: paging a search, or switching
 * its tab, sort or filters, then reads its matches from a temporary table of this connection
 * (row id, task id, title key; indexed by title) instead of building the list again from the
 * full-text index (`review*`, 6,666 row ids: about 1 ms a request), and a search in title order
 * walks the kept titles and stops at its page, where it read and sorted every match's key
 * (4.8 ms). A first search pays nothing more. See docs/performance.md, "Kept matches".
 */

/** Temporary tables per connection: the word sets kept at once. */
const SLOTS = 8;
/** A word set with more matches than this is not kept (its table would outweigh its use). */
const MAX_KEPT = 25_000;
/** Word sets remembered as asked once, waiting for a second ask. */
const ASKED = 256;

interface Slot {
  /** The table's name (`search_matches_H_N`), as `temp.` + name, and its title index's name. */
  name: string;
  table: string;
  index: string;
  created: boolean;
  /** The word set it holds (null: none), at which text version (-1 while being filled). */
  key: string | null;
  version: number;
  /** Requests reading it now: it is neither refilled nor given to another word set meanwhile. */
  users: number;
  filling?: Promise<boolean>;
  lastUsed: number;
}

/** Tells apart the tables of handles that share one connection (a handle with a plugin). */
let handles = 0;

class KeptMatches {
  private readonly slots: Slot[] = [];
  private readonly prefix = `search_matches_${++handles}`;
  /** Word sets asked once, with the text version they were asked at. */
  private readonly asked = new Map<string, number>();
  /** Word sets found to have too many matches, at that text version. */
  private readonly tooMany = new Map<string, number>();
  private clock = 0;

  async acquire(db: Kysely<Database>, words: string[]): Promise<Slot | undefined> {
    const key = JSON.stringify([...words].sort());
    // Read before the matches are: what is kept is then at least as new as the version noted.
    const version = await readSearchTextVersion(db);
    for (;;) {
      const slot = this.slots.find((candidate) => candidate.key === key);
      if (slot?.filling) {
        await slot.filling;
        continue;
      }
      if (slot && slot.version === version) {
        slot.users += 1;
        slot.lastUsed = ++this.clock;
        return slot;
      }
      // An older version than the one kept, or another request still reading an older copy.
      if (slot && (slot.version > version || slot.users > 0)) return undefined;
      if (this.tooMany.get(key) === version) return undefined;
      if (!slot && this.asked.get(key) !== version) {
        remember(this.asked, key, version, ASKED);
        return undefined;
      }
      const target = slot ?? this.freeSlot();
      if (!target) return undefined;
      target.key = key;
      target.version = -1;
      target.users = 1;
      target.lastUsed = ++this.clock;
      target.filling = fill(db, target, words);
      const kept = await target.filling.catch((error: unknown) => {
        target.key = null;
        target.users = 0;
        throw error;
      });
      target.filling = undefined;
      if (!kept) {
        target.key = null;
        target.users = 0;
        remember(this.tooMany, key, version, ASKED);
        return undefined;
      }
      target.version = version;
      return target;
    }
  }

  release(slot: Slot) {
    slot.users -= 1;
  }

  /** A table to fill: a new one while there are fewer than SLOTS, else the least recently used. */
  private freeSlot(): Slot | undefined {
    if (this.slots.length < SLOTS) {
      const name = `${this.prefix}_${this.slots.length}`;
      const slot: Slot = {
        name,
        table: `temp.${name}`,
        index: `${name}_title`,
        created: false,
        key: null,
        version: -1,
        users: 0,
        lastUsed: 0,
      };
      this.slots.push(slot);
      return slot;
    }
    const free = this.slots.filter((slot) => slot.users === 0 && !slot.filling);
    return free.sort((a, b) => a.lastUsed - b.lastUsed)[0];
  }
}

/** Keeps `key` in a map of at most `max` entries, the oldest dropped first. */
function remember(map: Map<string, number>, key: string, version: number, max: number) {
  map.delete(key);
  if (map.size >= max) map.delete(map.keys().next().value!);
  map.set(key, version);
}

/** Fills `slot` with the matches of `words`; false when there are too many to keep. */
async function fill(db: Kysely<Database>, slot: Slot, words: string[]): Promise<boolean> {
  const table = sql.raw(slot.table);
  if (!slot.created) {
    await sql`create temp table if not exists ${sql.raw(slot.name)} (
      rowid integer primary key, task_id text not null, title_key text
    )`.execute(db);
    await sql`create index if not exists ${sql.raw(`temp.${slot.index}`)}
      on ${sql.raw(slot.name)} (title_key, task_id)`.execute(db);
    slot.created = true;
  }
  await sql`delete from ${table}`.execute(db);
  const inserted = await sql`insert into ${table} (rowid, task_id, title_key)
    select k.search_id, k.task_id, k.title_key
    from task_search join task_search_keys k on k.search_id = task_search.rowid
    where task_search match ${sqliteSearchQuery(words)}
    limit ${MAX_KEPT + 1}`.execute(db);
  if (Number(inserted.numAffectedRows ?? 0) <= MAX_KEPT) return true;
  await sql`delete from ${table}`.execute(db);
  return false;
}

const kept = new WeakMap<Kysely<Database>, KeptMatches>();

/**
 * Runs `use` with the table of `words`' kept matches (`temp.search_matches_N`: `rowid` the
 * full-text row id, `task_id`, `title_key`), or with undefined when they are not kept (the
 * first ask at this text version, too many matches, PostgreSQL, a transaction): the caller then
 * reads the full-text index itself. The table stays as it is until `use` has settled.
 */
export async function withKeptMatches<T>(
  db: Kysely<Database>,
  words: string[],
  use: (table: string | undefined) => Promise<T>,
): Promise<T> {
  if (isPostgres(db) || db.isTransaction || words.length === 0) return use(undefined);
  let matches = kept.get(db);
  if (!matches) {
    matches = new KeptMatches();
    kept.set(db, matches);
  }
  const slot = await matches.acquire(db, words);
  if (!slot) return use(undefined);
  try {
    return await use(slot.table);
  } finally {
    matches.release(slot);
  }
}

/**
 * Starts `db`'s kept matches afresh: the next asks read the full-text index themselves until a
 * word set is asked for twice again (tests of those reads).
 */
export function forgetKeptMatches(db: Kysely<Database>): void {
  kept.delete(db);
}

/** The searched text's version (migration 2026-11-28-609), SQLite only. */
async function readSearchTextVersion(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('search_text_version')
    .select('version')
    .where('id', '=', 1)
    .executeTakeFirst();
  return Number(row?.version ?? 0);
}
