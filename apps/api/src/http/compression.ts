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
