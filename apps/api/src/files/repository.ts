import type { Kysely, Selectable } from 'kysely';
import type { Database, TaskFilesTable } from '../db/tables.js';

export type FileRow = Selectable<TaskFilesTable>;

export async function insertFileRow(db: Kysely<Database>, row: FileRow) {
  await db.insertInto('task_files').values(row).execute();
}

export async function insertChunk(db: Kysely<Database>, fileId: string, seq: number, data: Buffer) {
  await db.insertInto('task_file_chunks').values({ file_id: fileId, seq, data }).execute();
}

export async function finishFileRow(db: Kysely<Database>, id: string, size: number) {
  await db.updateTable('task_files').set({ complete: 1, size }).where('id', '=', id).execute();
}

/** A whole file (uploads still being written are nobody's yet). */
export async function findFileRow(db: Kysely<Database>, id: string) {
  return db
    .selectFrom('task_files')
    .selectAll()
    .where('id', '=', id)
    .where('complete', '=', 1)
    .executeTakeFirst();
}

/** One chunk of a file's bytes, or undefined past the last. */
export async function readChunk(db: Kysely<Database>, fileId: string, seq: number) {
  const row = await db
    .selectFrom('task_file_chunks')
    .select('data')
    .where('file_id', '=', fileId)
    .where('seq', '=', seq)
    .executeTakeFirst();
  return row?.data;
}

/** Deletes a file and its chunks (ON DELETE CASCADE). */
export async function deleteFileRow(db: Kysely<Database>, id: string): Promise<boolean> {
  const result = await db.deleteFrom('task_files').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Deletes uploads left unfinished since before `cutoff` (a process that stopped mid-upload). */
export async function deleteStaleUploads(db: Kysely<Database>, cutoff: string) {
  await db
    .deleteFrom('task_files')
    .where('complete', '=', 0)
    .where('created_at', '<', cutoff)
    .execute();
}
