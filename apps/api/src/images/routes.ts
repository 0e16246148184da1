import { Router, type RequestHandler } from 'express';
import type { Kysely } from 'kysely';
import multer from 'multer';
import { apiMessages } from '@task-manager/shared';
import type { Database } from '../db/tables.js';
import { BadRequest, HttpError, NotFound } from '../errors.js';
import { pathId } from '../http/path-id.js';
import { imagePath } from './links.js';
import { findImage } from './repository.js';
import { assertRoomForUpload, MAX_IMAGE_BYTES, storeImage } from './service.js';

const upload = multer({
  storage: multer.memoryStorage(),
  limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 5, fieldSize: 1024, parts: 10 },
}).single('image');

/** multer's limits that a too-large body trips, and what we answer for each. */
const TOO_LARGE: Partial<Record<multer.ErrorCode, string>> = {
  LIMIT_FILE_SIZE: apiMessages.imageTooLarge,
  LIMIT_FIELD_VALUE: apiMessages.bodyTooLarge,
  LIMIT_FIELD_KEY: apiMessages.bodyTooLarge,
};

/**
 * multer's errors, in our words and statuses. Besides its own MulterErrors, multer passes on
 * busboy's parse errors (no boundary, a body that ends mid-part, a broken part header) and the
 * client going away: all are a bad request, never a server error.
 */
const receiveImage: RequestHandler = (req, res, next) => {
  upload(req, res, (error: unknown) => {
    if (!error) return next();
    const tooLarge = error instanceof multer.MulterError ? TOO_LARGE[error.code] : undefined;
    next(tooLarge ? new HttpError(413, tooLarge) : BadRequest(apiMessages.imageRequired));
  });
};

export function imageUploadRoutes(deps: {
  db: Kysely<Database>;
  limiter: RequestHandler;
  /** Bytes the unclaimed uploads may hold together (default MAX_UNCLAIMED_IMAGE_BYTES). */
  unclaimedQuotaBytes?: number;
}): Router {
  const router = Router();
  // Before the body is read: a full quota costs the client its upload, not us a decode.
  const quota: RequestHandler = async (_req, _res, next) => {
    await assertRoomForUpload(deps.db, deps.unclaimedQuotaBytes);
    next();
  };
  router.post('/upload-image', deps.limiter, quota, receiveImage, async (req, res) => {
    // An empty file part is no image either (and sharp refuses an empty buffer outright).
    if (!req.file || req.file.size === 0) throw BadRequest(apiMessages.imageRequired);
    const image = await storeImage(deps.db, req.file.buffer);
    // Relative: the address is this server's whatever the Host header said.
    res.json({ imageUrl: imagePath(image.id) });
  });
  return router;
}

export function imageRoutes(deps: { db: Kysely<Database> }): Router {
  const router = Router();
  router.get('/:id', async (req, res) => {
    const image = await findImage(deps.db, pathId(req, apiMessages.imageNotFound));
    if (!image) throw NotFound(apiMessages.imageNotFound);
    res.set({
      'Content-Type': image.content_type,
      // An image's bytes never change under its id.
      'Cache-Control': 'public, max-age=31536000, immutable',
      // Profile photos are shown by clients on other origins too.
      'Cross-Origin-Resource-Policy': 'cross-origin',
      'Content-Security-Policy': "default-src 'none'; sandbox",
    });
    res.send(Buffer.from(image.data));
  });
  return router;
}
