import { symbols, type Logger } from 'pino';

/** How long the last log lines may take to reach stdout before the process ends regardless. */
const FLUSH_MS = 2_000;

interface EndableStream {
  end(): void;
  once(event: 'close', listener: () => void): unknown;
}

function isEndable(stream: unknown): stream is EndableStream {
  const candidate = stream as Partial<EndableStream> | undefined;
  return typeof candidate?.end === 'function' && typeof candidate.once === 'function';
}

/**
 * Ends the process once every log line written so far is out. pino writes stdout in the
 * background: a line still being written when `process.exit` runs could land after the lines
 * pino's exit hook writes at once, or never, so a stop's last lines ("database closed",
 * "stopped") came out of order. Ending the stream waits for what is in flight.
 */
export function exitAfterLogs(logger: Logger, code: number): void {
  process.exitCode = code;
  const exit = () => process.exit(code);
  const stream: unknown = (logger as unknown as Record<symbol, unknown>)[symbols.streamSym];
  if (!isEndable(stream)) return exit();
  // A stdout nobody reads must not keep a stopping process alive.
  setTimeout(exit, FLUSH_MS).unref();
  stream.once('close', exit);
  stream.end();
}
