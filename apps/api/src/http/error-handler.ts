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

/** Node's socket errors: the database server cannot be reached. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL's own: a connection exception (class 08), a server shutting down, crashed or still
 * starting (57P01-57P03), full (53300), or our statement_timeout (57014).
 */
const SERVER_AWAY = /^(08...|57P0[123]|53300|57014)$/;

/** node-postgres's words for a connection that broke, timed out or could not be opened. */
const CONNECTION_LOST =
  /^(Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error)/;

/** True when the error says the database is out of reach, not that the request was wrong. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof AggregateError) return error.errors.some(isDatabaseUnavailable);
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNREACHABLE.has(code) || SERVER_AWAY.test(code))) return true;
  return CONNECTION_LOST.test(error.message);
}

/** How long a client should wait before trying again while the database is away. */
const RETRY_AFTER_SECONDS = 5;

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) {
      // A streamed answer (a report) failed midway: nothing can be said any more.
      logger.error({ err: error, reqId: req.id }, 'error after response started');
      return next(error);
    }
    if (error instanceof HttpError) {
      // For middleware that counts outcomes (the rate limiters count wrong current passwords).
      res.locals.errorCode = error.details.code;
      if (error.details.retryAfterSeconds !== undefined) {
        res.set('Retry-After', String(error.details.retryAfterSeconds));
      }
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
    if (isDatabaseUnavailable(error)) {
      // An outage, not a bug: one line per request without the stack, and a 503 the client can
      // retry. The pool reconnects by itself once the server is back.
      logger.warn({ reqId: req.id, reason: (error as Error).message }, 'database unavailable');
      res.set('Retry-After', String(RETRY_AFTER_SECONDS));
      return res.status(503).json({ message: apiMessages.databaseUnavailable });
    }
    logger.error({ err: error, reqId: req.id }, 'unhandled error');
    res.status(500).json({ message: apiMessages.serverError });
  };
}
