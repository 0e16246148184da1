import { v7 } from 'uuid';

/**
 * The id of a new task, checklist item, link, comment, history entry or notification: a UUID of
 * version 7, whose first 48 bits are the time of its making and the rest random (RFC 9562).
 * Each of those tables has its id in an index (its key), and most writes add several rows to
 * them: with random ids (version 4) every new row's key went to a page of its own somewhere in
 * the index, which SQLite's page cache seldom held, so it was read from the file first; in time
 * order they go together at the index's end, which stays in the cache. On the 100,000-task file a
 * task's creation read 83 pages from the files (`pread`), 62 now; it writes as many (78 before, 81
 * now: an index grown at its end splits as often). Ids are no secret (every read checks who may see
 * what), so the time they carry is no leak beyond the `createdAt` each of them shows anyway; the
 * secrets (calendar feeds, invites, tokens) keep their random ids.
 */
export const newRowId = (): string => v7();
