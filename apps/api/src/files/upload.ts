import type { NextFunction, RequestHandler } from 'express';
import multer from 'multer';
import { apiMessages, TASK_FILE_FIELD } from '@task-manager/shared';
import { BadRequest, FileTooLarge, HttpError, NotFound } from '../errors.js';
import type { FileService, PendingFile } from './service.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The upload of POST /api/tasks/:id/files, written to the database, not yet attached. */
      taskFile?: PendingFile;
      /** Settles once the upload being written is stored or (refused, cut off) deleted again. */
      taskFileSettled?: Promise<unknown>;
    }
  }
}

/**
 * Reads one file from the multipart field `file` of POST /api/tasks/:id/files, streaming it
 * into the database (FileService.receive) so that memory stays bounded whatever its size. The
 * task is checked first: a caller who may not attach files to it is refused before any byte is
 * stored.
 */
export function receiveTaskFile(files: FileService): RequestHandler {
  const storage: multer.StorageEngine = {
    _handleFile(req, file, callback) {
      const taskId = String(req.params.id);
      const receiving = files.receive(taskId, req.user!.id, {
        name: file.originalname,
        contentType: file.mimetype,
        stream: file.stream,
      });
      req.taskFileSettled = receiving.catch(() => undefined);
      receiving
        .then((pending) => {
          req.taskFile = pending;
          callback(null, { size: pending.size, filename: pending.id });
        })
        .catch((error: unknown) => callback(error as Error));
    },
    _removeFile(req, file, callback) {
      req.taskFile = undefined;
      files.discard(file.filename).then(() => callback(null), callback);
    },
  };
  const upload = multer({
    storage,
    defParamCharset: 'utf8',
    limits: { fileSize: files.maxBytes, files: 1, fields: 5, fieldSize: 1024, parts: 10 },
  }).single(TASK_FILE_FIELD);

  return (req, res, next) => {
    const taskId = String(req.params.id ?? '');
    // An id that is no UUID is answered 404 by the endpoint's own parsing.
    if (!UUID.test(taskId)) return next();
    files.canUpload(req.user!, taskId).then(
      (allowed) => {
        if (!allowed) return next(NotFound(apiMessages.taskNotFound));
        upload(req, res, (error: unknown) => {
          if (!error) return next();
          // multer may answer a file over its limit while receive() still deletes what it wrote:
          // the refusal goes out once nothing of the file is left.
          void Promise.resolve(req.taskFileSettled).then(() => refuse(error, files.maxBytes, next));
        });
      },
      (error: unknown) => next(error),
    );
  };
}

/** The answer to an upload multer stopped: 413 past a limit, else 400 (no file). */
function refuse(error: unknown, maxBytes: number, next: NextFunction) {
  if (error instanceof HttpError) return next(error);
  if (error instanceof multer.MulterError && error.code === 'LIMIT_FILE_SIZE')
    return next(FileTooLarge(maxBytes));
  const fieldTooLarge =
    error instanceof multer.MulterError &&
    (error.code === 'LIMIT_FIELD_VALUE' || error.code === 'LIMIT_FIELD_KEY');
  next(
    fieldTooLarge
      ? new HttpError(413, apiMessages.bodyTooLarge)
      : BadRequest(apiMessages.fileMissing),
  );
}
