import { STATUS_CODES } from 'node:http';
import type { ErrorRequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { apiMessages } from '@task-manager/shared';
import { errorBody, HttpError } from '../errors.js';

/**
 * What middleware hands on: http-errors objects (body-parser, serve-static and send, the router)
 * carry a `status` (or `statusCode`), `expose` (false when the message is internal, such as
 * send's "ENOENT: ... stat '/srv/app/...'") and sometimes `headers` to send (Content-Range);
 * body-parser's also carry a `type`.
 */
interface MiddlewareError {
  type?: string;
  status?: unknown;
  statusCode?: unknown;
  expose?: boolean;
  headers?: unknown;
}

/** The 4xx status a middleware error asks for, if it asks for one. */
function clientErrorStatus(error: MiddlewareError): number | undefined {
  const status = error.status ?? error.statusCode;
  return typeof status === 'number' && Number.isInteger(status) && status >= 400 && status < 500
    ? status
    : undefined;
}

/**
 * What a static file's answer had set before it failed (send sets them before it checks a
 * Range): they describe that file, not the error, and a year's Cache-Control must not keep one.
 */
const FILE_HEADERS = [
  'Content-Type',
  'Content-Length',
  'Content-Encoding',
  'Content-Language',
  'Content-Range',
  'Accept-Ranges',
  'Cache-Control',
  'ETag',
  'Last-Modified',
];

/** The headers an error asks to be sent with it (a plain list of values), instead of those. */
function setErrorHeaders(res: Response, headers: unknown) {
  for (const name of FILE_HEADERS) res.removeHeader(name);
  if (typeof headers !== 'object' || headers === null) return;
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value === 'string' || typeof value === 'number') res.set(name, String(value));
  }
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
      return res.status(error.status).json(
        errorBody(error.status, error.message, {
          code: error.details.code,
          errors: error.errors,
          maxBytes: error.details.maxBytes,
        }),
      );
    }
    const parserError = error as MiddlewareError;
    if (parserError.type === 'entity.parse.failed') {
      return res.status(400).json(errorBody(400, apiMessages.malformedJson));
    }
    if (parserError.type === 'entity.too.large') {
      return res.status(413).json(errorBody(413, apiMessages.bodyTooLarge));
    }
    // The router could not decode a path parameter (a broken %-escape such as /api/tasks/%E0%A4).
    if (error instanceof URIError) {
      return res.status(400).json(errorBody(400, apiMessages.malformedUrl));
    }
    // Any other 4xx a middleware raised (a missing static file, a method or range it refuses, a
    // charset body-parser cannot read) is the client's: its own status, never a 500. Its
    // message only when http-errors says it may be shown; otherwise the status's own words.
    const status = clientErrorStatus(parserError);
    if (status !== undefined) {
      setErrorHeaders(res, parserError.headers);
      const message =
        parserError.expose && error instanceof Error && error.message
          ? error.message
          : status === 404
            ? apiMessages.notFound
            : (STATUS_CODES[status] ?? 'Bad Request');
      return res.status(status).json(errorBody(status, message));
    }
    if (isDatabaseUnavailable(error)) {
      // An outage, not a bug: one line per request without the stack, and a 503 the client can
      // retry. The pool reconnects by itself once the server is back.
      logger.warn({ reqId: req.id, reason: (error as Error).message }, 'database unavailable');
      res.set('Retry-After', String(RETRY_AFTER_SECONDS));
      return res.status(503).json(errorBody(503, apiMessages.databaseUnavailable));
    }
    logger.error({ err: error, reqId: req.id }, 'unhandled error');
    res.status(500).json(errorBody(500, apiMessages.serverError));
  };
}
