import type { RequestHandler } from 'express';
import multer from 'multer';
import { apiMessages } from '@task-manager/shared';
import { BadRequest, HttpError } from '../errors.js';
import { MAX_IMAGE_BYTES } from './service.js';

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
 * Reads one file from the multipart field `image`, in our words and statuses. Besides its own
 * MulterErrors, multer passes on busboy's parse errors (no boundary, a body that ends mid-part,
 * a broken part header) and the client going away: all are a bad request, never a server error.
 */
export const receiveImage: RequestHandler = (req, res, next) => {
  upload(req, res, (error: unknown) => {
    if (!error) return next();
    const tooLarge = error instanceof multer.MulterError ? TOO_LARGE[error.code] : undefined;
    next(tooLarge ? new HttpError(413, tooLarge) : BadRequest(apiMessages.imageRequired));
  });
};
