/**
 * Values worked out from the database, remembered for as long as its data version (migration
 * 2026-11-27-301, moved by triggers on every write to what task answers show) stays the same.
 * One memo per database handle, holding only the newest version's values: a write moves the
 * version, and the first request that sees the new one starts afresh.
 *
 * The caller reads the version BEFORE working the value out (as for the ETags, conditional.ts):
 * what it computes is then at least as new as that version, never older.
 */
export class VersionedMemo<T> {
  private readonly byDatabase = new WeakMap<object, { version: number; values: Map<string, T> }>();

  constructor(private readonly maxEntries: number) {}

  /**
   * The value of `key` at `version`, worked out by `compute` unless remembered. `usable` (if
   * given) says whether a remembered value still answers this request; if not, it is worked out
   * again and replaces it.
   */
  async get(
    database: object,
    version: number,
    key: string,
    compute: () => Promise<T>,
    usable: (value: T) => boolean = () => true,
  ): Promise<T> {
    let kept = this.byDatabase.get(database);
    if (kept === undefined || kept.version < version) {
      kept = { version, values: new Map() };
      this.byDatabase.set(database, kept);
    }
    // A request that read an older version than the newest seen: its value is not kept.
    if (kept.version > version) return compute();
    const found = kept.values.get(key);
    if (found !== undefined && usable(found)) {
      // Map keeps insertion order: re-inserting makes it the most recently used.
      kept.values.delete(key);
      kept.values.set(key, found);
      return found;
    }
    const value = await compute();
    // The version may have moved while computing: only the newest version's values are kept.
    if (this.byDatabase.get(database) === kept) {
      kept.values.delete(key);
      if (kept.values.size >= this.maxEntries) kept.values.delete(kept.values.keys().next().value!);
      kept.values.set(key, value);
    }
    return value;
  }
}
