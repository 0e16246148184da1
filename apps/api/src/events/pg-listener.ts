import pg from 'pg';
import type { Logger } from 'pino';
import { EVENTS_CHANNEL } from './log.js';

/** The wait before connecting again after the listening connection was lost. */
const RECONNECT_MS = 1000;

/**
 * LISTENs for committed events on a connection of its own (a pooled one would be handed to
 * queries, and LISTEN lasts as long as its connection). `onNotify` runs for every NOTIFY and
 * after each (re)connection, since events committed while it was down were not announced.
 * Returns a function that stops listening.
 */
export function listenForEvents(
  connectionString: string,
  onNotify: () => void,
  logger: Logger,
): () => Promise<void> {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  const reconnectLater = () => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, RECONNECT_MS);
    retry.unref();
  };

  async function connect() {
    const current = new pg.Client({ connectionString, keepAlive: true });
    client = current;
    current.on('notification', (message) => {
      if (message.channel === EVENTS_CHANNEL) onNotify();
    });
    current.on('error', (error) => {
      logger.warn({ err: error }, 'live events: the LISTEN connection failed; reconnecting');
      void current.end().catch(() => undefined);
      reconnectLater();
    });
    current.on('end', () => reconnectLater());
    try {
      await current.connect();
      await current.query(`LISTEN ${EVENTS_CHANNEL}`);
      if (stopped) await current.end();
      else onNotify();
    } catch (error) {
      logger.warn({ err: error }, 'live events: could not LISTEN; retrying');
      void current.end().catch(() => undefined);
      reconnectLater();
    }
  }

  void connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => undefined);
  };
}
