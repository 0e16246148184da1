import { v7 } from 'uuid';

/**
 * The id of a new task, checklist item, link, comment, history entry or notification: a UUID of
 * version 7, whose first 48 bits are the time of its making and the rest random (RFC 9562).
 * Each of those tables has its id in an index (its key), and most writes add several rows to
 * them: with random ids (version 4) every new row landed on a page of its own somewhere in the
 * index, a page to read and write back at the commit; in time order they land together at the
 * index's end. On the 100,000-task file a task's creation wrote 78 pages to the log, some 8 of
 * them for those keys (docs/performance.md). Ids are no secret (every read checks who may see
 * what), so the time they carry is no leak beyond the `createdAt` each of them shows anyway; the
 * secrets (calendar feeds, invites, tokens) keep their random ids.
 */
export const newRowId = (): string => v7();
