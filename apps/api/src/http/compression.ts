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
 * JSON answers, index.html. Files the build compressed already (apps/web/vite.config.ts) are sent
 * with their Content-Encoding set, which this leaves alone.
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

/**
 * Sends `json` (text or UTF-8 bytes), compressed as compressAnswers would (brotli when the
 * client takes it, else gzip; nothing under the threshold, for HEAD, or under `Cache-Control:
 * no-transform`), but in one call when it is at most WHOLE_COMPRESSION_MAX_BYTES. The middleware
 * leaves an answer that already has its Content-Encoding alone.
 */
export function sendJson(req: Request, res: Response, json: string | Buffer): void {
  const size = typeof json === 'string' ? Buffer.byteLength(json) : json.length;
  const encoding =
    size >= COMPRESSION_THRESHOLD_BYTES &&
    size <= WHOLE_COMPRESSION_MAX_BYTES &&
    req.method !== 'HEAD' &&
    res.getHeader('Content-Encoding') === undefined &&
    !/\bno-transform\b/i.test(String(res.getHeader('Cache-Control') ?? ''))
      ? preferredEncoding(req)
      : undefined;
  if (!encoding) {
    res.send(json);
    return;
  }
  res.vary('Accept-Encoding');
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
}

/** Brotli when the request accepts it, else gzip, else none (no Accept-Encoding: none). */
function preferredEncoding(req: Request): 'br' | 'gzip' | undefined {
  if (!req.headers['accept-encoding']) return undefined;
  if (req.acceptsEncodings('br') === 'br') return 'br';
  if (req.acceptsEncodings('gzip') === 'gzip') return 'gzip';
  return undefined;
}
