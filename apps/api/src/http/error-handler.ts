import type { ErrorRequestHandler } from 'express';
import type { Logger } from 'pino';
import { apiMessages } from '@task-manager/shared';
import { HttpError } from '../errors.js';

/** body-parser's errors carry a `type` and a 4xx status. */
interface BodyParserError {
  type?: string;
  status?: number;
  expose?: boolean;
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) {
      // A streamed answer (a report) failed midway: nothing can be said any more.
      logger.error({ err: error, reqId: req.id }, 'error after response started');
      return next(error);
    }
    if (error instanceof HttpError) {
      return res
        .status(error.status)
        .json(
          error.errors
            ? { message: error.message, errors: error.errors }
            : { message: error.message },
        );
    }
    const parserError = error as BodyParserError;
    if (parserError.type === 'entity.parse.failed') {
      return res.status(400).json({ message: apiMessages.malformedJson });
    }
    if (parserError.type === 'entity.too.large') {
      return res.status(413).json({ message: apiMessages.bodyTooLarge });
    }
    // The router could not decode a path parameter (a broken %-escape such as /api/tasks/%E0%A4).
    if (error instanceof URIError) {
      return res.status(400).json({ message: apiMessages.malformedUrl });
    }
    if (
      parserError.expose &&
      typeof parserError.status === 'number' &&
      parserError.status >= 400 &&
      parserError.status < 500
    ) {
      return res.status(parserError.status).json({ message: (error as Error).message });
    }
    logger.error({ err: error, reqId: req.id }, 'unhandled error');
    res.status(500).json({ message: apiMessages.serverError });
  };
}
