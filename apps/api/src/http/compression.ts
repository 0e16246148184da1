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
 * JSON answers up to this size are compressed at once when sent (sendJson) rather than through
 * the middleware's stream. The stream (a zlib object, its work in the thread pool, its callbacks)
 * cost about 0.6 ms of server CPU per answer whatever its size: a quarter of a checklist tick
 * answered to a browser (one task, 1.5 KB), where compressing the whole text takes 50-70 µs.
 * Larger answers (a page of tasks) keep the stream: compressed off the request thread.
 */
export const WHOLE_COMPRESSION_MAX_BYTES = 16 * 1024;

/** The middleware's brotli quality (compression's default), for the same bytes either way. */
const BROTLI_QUALITY = 4;

/**
 * Sends the JSON `text`, compressed as compressAnswers would (brotli when the client takes it,
 * else gzip; nothing under the threshold, for HEAD, or under `Cache-Control: no-transform`), but
 * in one call when it is at most WHOLE_COMPRESSION_MAX_BYTES. The middleware leaves an answer
 * that already has its Content-Encoding alone.
 */
export function sendJson(req: Request, res: Response, text: string): void {
  const size = Buffer.byteLength(text);
  const encoding =
    size >= COMPRESSION_THRESHOLD_BYTES &&
    size <= WHOLE_COMPRESSION_MAX_BYTES &&
    req.method !== 'HEAD' &&
    res.getHeader('Content-Encoding') === undefined &&
    !/\bno-transform\b/i.test(String(res.getHeader('Cache-Control') ?? ''))
      ? preferredEncoding(req)
      : undefined;
  if (!encoding) {
    res.send(text);
    return;
  }
  res.vary('Accept-Encoding');
  res.setHeader('Content-Encoding', encoding);
  res.send(
    encoding === 'br'
      ? zlib.brotliCompressSync(text, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size,
          },
        })
      : zlib.gzipSync(text),
  );
}

/** Brotli when the request accepts it, else gzip, else none (no Accept-Encoding: none). */
function preferredEncoding(req: Request): 'br' | 'gzip' | undefined {
  if (!req.headers['accept-encoding']) return undefined;
  if (req.acceptsEncodings('br') === 'br') return 'br';
  if (req.acceptsEncodings('gzip') === 'gzip') return 'gzip';
  return undefined;
}
