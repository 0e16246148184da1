import zlib from 'node:zlib';
import compression from 'compression';
import type { Request, RequestHandler, Response } from 'express';

/**
 * Answers smaller than this go out as they are. Measured (docs/performance.md, "Compression"):
 * an answer under 1 KB (an error, a single small object) fits in one TCP segment either way, so
 * compressing it saves no round trip and only costs 20-60 µs of CPU; from 1 KB on a page of tasks
 * shrinks to a fifth or less (133 KB → about 15 KB) for well under a millisecond.
 */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * Types that must reach the client as they are written: an event stream (Server-Sent Events)
 * would sit in the compressor's buffer instead of arriving event by event.
 */
const STREAMED_TYPES = /^text\/event-stream\b/i;

/** True when this answer may be compressed: compressible types, never a stream of events. */
export function shouldCompress(req: Request, res: Response): boolean {
  const type = res.getHeader('Content-Type');
  if (typeof type === 'string' && STREAMED_TYPES.test(type)) return false;
  return compression.filter(req, res);
}

/**
 * Compresses what the server writes on the fly (brotli when the browser takes it, else gzip):
 * index.html, the API's documents, files and feeds. Files the build compressed already
 * (apps/web/vite.config.ts) are sent with their Content-Encoding set, which this leaves alone.
 * The endpoints' JSON answers do not pass through it: sendJson compresses them, and hands only
 * what it does not do in one piece to it.
 */
export function compressAnswers(): RequestHandler {
  return compression({ threshold: COMPRESSION_THRESHOLD_BYTES, filter: shouldCompress });
}

/**
 * JSON answers up to this size are compressed in one call as they are sent (sendJson) rather
 * than through the middleware's stream. The stream (a zlib object, its work handed to the thread
 * pool 16 KB at a time, its callbacks) cost about 0.6 ms of server CPU for one task (1.5 KB), and
 * 5.5 ms for a page of 100 tasks (140 KB) that brotli compresses in one call in 1.6-2 ms. In one
 * call the request's thread is busy that long (the page's own reads take longer); larger answers
 * keep the stream.
 */
export const WHOLE_COMPRESSION_MAX_BYTES = 256 * 1024;

/** The middleware's brotli quality (compression's default), for the same bytes either way. */
const BROTLI_QUALITY = 4;

/** The middleware for the answers sendJson streams (larger ones, or deflate alone). */
const streamedAnswers = compressAnswers();

/**
 * Sends `json` (text or UTF-8 bytes) as compressAnswers would (brotli when the client takes it,
 * else gzip; nothing under the threshold, for HEAD, or under `Cache-Control: no-transform`), but
 * in one call when it is at most WHOLE_COMPRESSION_MAX_BYTES. Only a larger answer, or one to a
 * client that takes neither brotli nor gzip, goes through the middleware's stream: the middleware
 * wraps the response's methods on every request it sees (about 0.05-0.09 ms of CPU for one task,
 * docs/performance.md), which an answer that needs no stream does not pay. An answer that already
 * has its Content-Encoding is left alone.
 */
export function sendJson(req: Request, res: Response, json: string | Buffer): void {
  const size = typeof json === 'string' ? Buffer.byteLength(json) : json.length;
  const transformable =
    size >= COMPRESSION_THRESHOLD_BYTES &&
    req.method !== 'HEAD' &&
    res.getHeader('Content-Encoding') === undefined &&
    !/\bno-transform\b/i.test(String(res.getHeader('Cache-Control') ?? ''));
  if (!transformable) {
    res.send(json);
    return;
  }
  // Whether it is compressed depends on what the client accepts, whatever it gets.
  res.vary('Accept-Encoding');
  const encoding = preferredEncoding(req);
  if (encoding && size <= WHOLE_COMPRESSION_MAX_BYTES) {
    res.setHeader('Content-Encoding', encoding);
    res.send(
      encoding === 'br'
        ? zlib.brotliCompressSync(json, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size,
            },
          })
        : zlib.gzipSync(json),
    );
  } else if (req.headers['accept-encoding']) {
    streamedAnswers(req, res, () => res.send(json));
  } else {
    res.send(json);
  }
}

/** Brotli when the request accepts it, else gzip, else none (no Accept-Encoding: none). */
function preferredEncoding(req: Request): 'br' | 'gzip' | undefined {
  if (!req.headers['accept-encoding']) return undefined;
  if (req.acceptsEncodings('br') === 'br') return 'br';
  if (req.acceptsEncodings('gzip') === 'gzip') return 'gzip';
  return undefined;
}
