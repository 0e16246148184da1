import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';

/** Probes come every few seconds; a failing readiness check logs its own warning. */
const PROBE_PATH = /^\/api\/(health|ready)(\?|$)/;

/** A fresh id for each request, sent back as X-Request-Id so a client can quote it. */
function requestId(_req: IncomingMessage, res: ServerResponse): string {
  const id = randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/**
 * Gives each request its id (`req.id`, the X-Request-Id header) and `req.log`, and logs a line
 * for each answer ("request completed", with pino-http) when the logger writes info lines.
 *
 * Below info (LOG_LEVEL=warn or quieter) no such line is ever written, yet pino-http would still
 * build a child logger for each request (its bindings serialised at once) and listen for the
 * answer's end: about a sixth of the CPU of a one-task read (docs/performance.md). There the
 * request only gets its id, and `req.log` is the app's logger: what logs from a request at warn
 * or above names the request by `reqId`, as the error handler does.
 */
export function requestLog(logger: Logger): RequestHandler {
  if (!logger.isLevelEnabled('info')) {
    return (req, res, next) => {
      req.id = requestId(req, res);
      req.log = logger;
      next();
    };
  }
  return pinoHttp({
    logger,
    autoLogging: { ignore: (req) => PROBE_PATH.test(req.url ?? '') },
    genReqId: requestId,
    // Only what is needed to follow a request: never headers (tokens) or bodies (passwords).
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({
        id: req.id,
        method: req.method,
        url: req.url.split('?')[0],
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
}
