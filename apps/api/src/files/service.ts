import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import { apiMessages, type TaskFile } from '@task-manager/shared';
import { recordActivity } from '../activity/service.js';
import type { Database } from '../db/tables.js';
import { BadRequest, FileTooLarge, Forbidden, NotFound } from '../errors.js';
import type { RequestUser } from '../http/request-user.js';
import type { TaskService } from '../tasks/service.js';
import {
  deleteFileRow,
  deleteStaleUploads,
  finishFileRow,
  findFileRow,
  insertChunk,
  insertFileRow,
  readChunk,
  type FileRow,
} from './repository.js';
import { canDeleteFile } from './policy.js';

/** MAX_FILE_MB's default. */
export const DEFAULT_MAX_FILE_BYTES = 25 * 1024 * 1024;
/** The bytes of a file are stored in rows of at most this many (docs/decisions/006). */
export const FILE_CHUNK_BYTES = 256 * 1024;
/** An upload unfinished for this long was left by a process that stopped: it is deleted. */
const STALE_UPLOAD_MS = 60 * 60 * 1000;

const CONTENT_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,63}$/i;

/** A stored file name's length, in characters. */
const MAX_NAME_CHARS = 255;
/** The longest ending after the last dot that a shortened name keeps as its extension. */
const MAX_EXTENSION_CHARS = 16;

/**
 * A name safe to store and to send back: no path, no control characters, at most 255
 * characters (a longer one loses the end of its stem, not its extension).
 */
export function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  const clean = base.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '').trim();
  const chars = [...clean];
  if (chars.length <= MAX_NAME_CHARS) return clean || 'file';
  // Too long: the middle goes, the extension stays (a download still opens with the right app).
  const dot = chars.lastIndexOf('.');
  const extension = dot > 0 && chars.length - dot <= MAX_EXTENSION_CHARS ? chars.slice(dot) : [];
  return [...chars.slice(0, MAX_NAME_CHARS - extension.length), ...extension].join('');
}

function safeContentType(type: string): string {
  return CONTENT_TYPE.test(type) ? type.toLowerCase() : 'application/octet-stream';
}

function toApi(row: FileRow): TaskFile {
  return {
    _id: row.id,
    taskId: row.task_id,
    name: row.name,
    size: Number(row.size),
    contentType: row.content_type,
    uploadedBy: row.uploaded_by,
    createdAt: row.created_at,
  };
}

/** An upload written to the database, not yet attached to its task. */
export interface PendingFile {
  id: string;
  size: number;
}

export class FileService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly tasks: TaskService,
    readonly maxBytes: number = DEFAULT_MAX_FILE_BYTES,
  ) {}

  /** True when `user` may attach files to task `taskId`: admins and its assignees. */
  canUpload(user: RequestUser, taskId: string): Promise<boolean> {
    return this.tasks.canSee(user, taskId);
  }

  /**
   * Writes an upload's bytes into the database as they arrive, a chunk at a time (the stream
   * is read with backpressure: memory holds one chunk, whatever the file's size). The file stays
   * invisible until `attach`. Over `maxBytes`: deleted, 413.
   */
  async receive(
    taskId: string,
    uploaderId: string,
    file: { name: string; contentType: string; stream: Readable & { truncated?: boolean } },
  ): Promise<PendingFile> {
    // The parser stops a file at its limit ('limit', then the stream ends or is aborted); it
    // may say so before the first await below returns.
    let overLimit = false;
    file.stream.once('limit', () => (overLimit = true));
    const now = new Date();
    await deleteStaleUploads(this.db, new Date(now.getTime() - STALE_UPLOAD_MS).toISOString());
    const id = randomUUID();
    await insertFileRow(this.db, {
      id,
      task_id: taskId,
      name: safeFileName(file.name),
      content_type: safeContentType(file.contentType),
      size: 0,
      uploaded_by: uploaderId,
      created_at: now.toISOString(),
      complete: 0,
    });
    let size = 0;
    let seq = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const flush = async (all: boolean) => {
      while (pendingBytes >= FILE_CHUNK_BYTES || (all && pendingBytes > 0)) {
        const joined = Buffer.concat(pending, pendingBytes);
        const chunk = joined.subarray(0, FILE_CHUNK_BYTES);
        await insertChunk(this.db, id, seq++, Buffer.from(chunk));
        const rest = joined.subarray(chunk.length);
        pending = rest.length > 0 ? [rest] : [];
        pendingBytes = rest.length;
      }
    };
    try {
      for await (const part of file.stream as AsyncIterable<Buffer>) {
        size += part.length;
        if (size > this.maxBytes) throw FileTooLarge(this.maxBytes);
        pending.push(part);
        pendingBytes += part.length;
        await flush(false);
      }
      if (overLimit || file.stream.truncated) throw FileTooLarge(this.maxBytes);
      // Nothing in it: an empty file is a mistake (a failed save, a placeholder), not an attachment.
      if (size === 0) throw BadRequest(apiMessages.fileEmpty);
      await flush(true);
      return { id, size };
    } catch (error) {
      await this.discard(id);
      throw overLimit ? FileTooLarge(this.maxBytes) : error;
    }
  }

  /** Deletes an upload that will not be attached. */
  async discard(id: string): Promise<void> {
    await deleteFileRow(this.db, id);
  }

  /** Attaches a received upload to its task, with its history entry; answers the file. */
  async attach(user: RequestUser, taskId: string, upload: PendingFile): Promise<TaskFile> {
    return this.tasks.changeWithin(
      user,
      taskId,
      async (trx) => {
        await finishFileRow(trx, upload.id, upload.size);
        const row = await findFileRow(trx, upload.id);
        if (!row || row.task_id !== taskId) throw NotFound(apiMessages.fileNotFound);
        await recordActivity(trx, taskId, user.id, [
          { type: 'file.added', data: { fileId: row.id, name: row.name } },
        ]);
        return toApi(row);
      },
      { changesTask: true },
    );
  }

  /** A file of a task `user` can see (404 otherwise), and its bytes a chunk at a time. */
  async open(user: RequestUser, id: string) {
    const row = await this.visibleFile(user, id);
    const db = this.db;
    async function* chunks(): AsyncGenerator<Buffer> {
      for (let seq = 0; ; seq++) {
        const data = await readChunk(db, id, seq);
        if (!data) return;
        yield Buffer.isBuffer(data) ? data : Buffer.from(data);
      }
    }
    return { file: toApi(row), chunks };
  }

  /** Its uploader or an admin deletes it (403 for anyone else who can see it). */
  async delete(user: RequestUser, id: string): Promise<void> {
    const row = await this.visibleFile(user, id);
    if (!canDeleteFile(user, row)) throw Forbidden(apiMessages.notUploaderOrAdmin);
    await this.tasks.changeWithin(
      user,
      row.task_id,
      async (trx) => {
        if (!(await deleteFileRow(trx, id))) throw NotFound(apiMessages.fileNotFound);
        await recordActivity(trx, row.task_id, user.id, [
          { type: 'file.removed', data: { fileId: id, name: row.name } },
        ]);
      },
      { changesTask: true },
    );
  }

  private async visibleFile(user: RequestUser, id: string): Promise<FileRow> {
    const row = await findFileRow(this.db, id);
    if (!row || !(await this.tasks.canSee(user, row.task_id))) {
      throw NotFound(apiMessages.fileNotFound);
    }
    return row;
  }
}
